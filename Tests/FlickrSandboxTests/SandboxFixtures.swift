/// Flickr's documented response examples, as JSON, to hold the sandbox to.
///
/// Written from Flickr's API documentation (the standard photos response of
/// `flickr.photos.search` with extras, `flickr.test.echo`, and the error response), keeping
/// the types Flickr's JSON uses: `total` and `dateupload` as strings, `farm` and the paging
/// counts as numbers, `description` and echoed values wrapped in `_content`, coordinates as
/// strings for geotagged photos and `0` numbers for the others.
enum SandboxFixtures {
    static let search = #"""
        {"photos":{"page":1,"pages":24306,"perpage":5,"total":"121528","photo":[
        {"id":"48499561892","owner":"7702423@N04","secret":"2fc41d65e3","server":"65535","farm":66,
         "title":"Fox Squirrels on a Beautiful Summer Day","ispublic":1,"isfriend":0,"isfamily":0,
         "description":{"_content":"Fox squirrels out and about."},"dateupload":"1565395643","ownername":"cseeman",
         "originalsecret":"0c4a5d3b2f","originalformat":"jpg","tags":"gobluesquirrels squirrels",
         "latitude":"42.277500","longitude":"-83.738200","accuracy":"16","context":0,
         "geo_is_public":1,"geo_is_contact":0,"geo_is_friend":0,"geo_is_family":0}
        ]},"stat":"ok"}
        """#

    /// A photo without a place, as the `geo` extra reports it.
    static let searchWithoutPlace = #"""
        {"photos":{"page":1,"pages":1,"perpage":100,"total":"1","photo":[
        {"id":"2636","owner":"47058503995@N01","secret":"a123456","server":"2","farm":1,"title":"test_04",
         "ispublic":1,"isfriend":0,"isfamily":0,"latitude":0,"longitude":0,"accuracy":0,"context":0}
        ]},"stat":"ok"}
        """#

    static let echo = #"""
        {"method":{"_content":"flickr.test.echo"},"api_key":{"_content":"a1b2c3"},"format":{"_content":"json"},
         "nojsoncallback":{"_content":"1"},"stat":"ok"}
        """#

    static let failure = #"{"stat":"fail","code":112,"message":"Method \"flickr.photos.doesNotExist\" not found"}"#
}
