extension SandboxCatalogue {
    /// Stanford's spots: tag, name, the picture's silhouette and colours, and the place.
    static let stanfordSpots: [SandboxSpot] = [
        SandboxSpot(
            tag: "hoovertower",
            name: "Hoover Tower",
            kind: .tower,
            sky: RGB(135, 186, 235),
            ground: RGB(196, 164, 120),
            accent: RGB(176, 74, 52),
            latitude: 37.427470,
            longitude: -122.166730
        ),
        SandboxSpot(
            tag: "mainquad",
            name: "Main Quad",
            kind: .arcade,
            sky: RGB(150, 195, 240),
            ground: RGB(214, 190, 150),
            accent: RGB(168, 80, 56),
            latitude: 37.427420,
            longitude: -122.170170
        ),
        SandboxSpot(
            tag: "memorialchurch",
            name: "Memorial Church",
            kind: .church,
            sky: RGB(120, 170, 225),
            ground: RGB(205, 180, 140),
            accent: RGB(212, 175, 55),
            latitude: 37.426750,
            longitude: -122.170290
        ),
        SandboxSpot(
            tag: "greenlibrary",
            name: "Green Library",
            kind: .library,
            sky: RGB(160, 200, 235),
            ground: RGB(110, 150, 90),
            accent: RGB(190, 160, 120),
            latitude: 37.426880,
            longitude: -122.167010
        ),
        SandboxSpot(
            tag: "oval",
            name: "The Oval",
            kind: .lawn,
            sky: RGB(140, 195, 245),
            ground: RGB(86, 150, 70),
            accent: RGB(140, 21, 21),
            latitude: 37.429350,
            longitude: -122.169380
        ),
        SandboxSpot(
            tag: "rodinsculpturegarden",
            name: "Rodin Sculpture Garden",
            kind: .sculpture,
            sky: RGB(170, 200, 225),
            ground: RGB(120, 140, 100),
            accent: RGB(70, 60, 50),
            latitude: 37.432430,
            longitude: -122.171250
        ),
        SandboxSpot(
            tag: "cantorartscenter",
            name: "Cantor Arts Center",
            kind: .museum,
            sky: RGB(150, 185, 220),
            ground: RGB(200, 185, 160),
            accent: RGB(90, 80, 70),
            latitude: 37.433160,
            longitude: -122.170350
        ),
        SandboxSpot(
            tag: "lakelagunita",
            name: "Lake Lagunita",
            kind: .lake,
            sky: RGB(235, 180, 120),
            ground: RGB(170, 150, 90),
            accent: RGB(70, 110, 150),
            latitude: 37.422340,
            longitude: -122.176210
        ),
        SandboxSpot(
            tag: "dish",
            name: "The Dish",
            kind: .hills,
            sky: RGB(200, 220, 240),
            ground: RGB(200, 175, 95),
            accent: RGB(235, 235, 235),
            latitude: 37.408570,
            longitude: -122.178620
        ),
        SandboxSpot(
            tag: "stanfordstadium",
            name: "Stanford Stadium",
            kind: .stadium,
            sky: RGB(25, 35, 70),
            ground: RGB(60, 140, 60),
            accent: RGB(140, 21, 21),
            latitude: 37.434590,
            longitude: -122.161070
        ),
        SandboxSpot(
            tag: "bingconcerthall",
            name: "Bing Concert Hall",
            kind: .hall,
            sky: RGB(180, 210, 240),
            ground: RGB(150, 140, 130),
            accent: RGB(200, 140, 90),
            latitude: 37.432450,
            longitude: -122.165110
        ),
        SandboxSpot(
            tag: "arizonacactusgarden",
            name: "Arizona Cactus Garden",
            kind: .cactus,
            sky: RGB(190, 215, 240),
            ground: RGB(190, 160, 110),
            accent: RGB(80, 130, 70),
            latitude: 37.437560,
            longitude: -122.170070
        ),
        SandboxSpot(
            tag: "angelofgrief",
            name: "Angel of Grief",
            kind: .statue,
            sky: RGB(120, 130, 150),
            ground: RGB(70, 100, 60),
            accent: RGB(230, 230, 225),
            latitude: 37.438530,
            longitude: -122.171900
        ),
        SandboxSpot(
            tag: "frostamphitheater",
            name: "Frost Amphitheater",
            kind: .amphitheater,
            sky: RGB(150, 200, 235),
            ground: RGB(90, 150, 70),
            accent: RGB(120, 90, 60),
            latitude: 37.431070,
            longitude: -122.165850
        ),
        SandboxSpot(
            tag: "theclaw",
            name: "The Claw, White Plaza",
            kind: .fountain,
            sky: RGB(150, 200, 240),
            ground: RGB(200, 195, 185),
            accent: RGB(90, 100, 110),
            latitude: 37.424670,
            longitude: -122.169320
        ),
        SandboxSpot(
            tag: "papuanewguineasculpturegarden",
            name: "Papua New Guinea Sculpture Garden",
            kind: .sculpture,
            sky: RGB(160, 195, 225),
            ground: RGB(100, 130, 80),
            accent: RGB(120, 80, 50),
            latitude: 37.428500,
            longitude: -122.164800
        ),
        // Only photos uploaded later in the timeline use this spot: a tag that appears.
        SandboxSpot(
            tag: "windhover",
            name: "Windhover Contemplative Center",
            kind: .hall,
            sky: RGB(185, 205, 225),
            ground: RGB(120, 150, 100),
            accent: RGB(150, 110, 70),
            latitude: 37.424060,
            longitude: -122.164420
        ),
    ]
}

/// The members who uploaded the catalogue's photos.
enum Photographers {
    /// The account whose photos `flickr.photos.search&user_id=48247111@N07` returns.
    static let cs193p = SandboxPhotographer(nsid: "48247111@N07", name: "CS193p Stanford")
    static let ana = SandboxPhotographer(nsid: "91327614@N02", name: "Ana Lucía Ortega")
    static let wei = SandboxPhotographer(nsid: "35468159237@N01", name: "Wei Chen 陈伟")
    static let priya = SandboxPhotographer(nsid: "127040123@N05", name: "Priya Raman")
    static let jonas = SandboxPhotographer(nsid: "66218337@N00", name: "jonas.becker")
    static let keiko = SandboxPhotographer(nsid: "142889301@N03", name: "田中 恵子")
    static let sam = SandboxPhotographer(nsid: "23509847@N08", name: "Sam O'Neill")
    static let masha = SandboxPhotographer(nsid: "8120449@N04", name: "Маша Ковалёва")
}
