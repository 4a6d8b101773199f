print("flickr-sandbox: not yet")
