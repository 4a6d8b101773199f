enum FlickrPlaceholder {}
