import Flickr
enum FlickrSandboxPlaceholder {}
