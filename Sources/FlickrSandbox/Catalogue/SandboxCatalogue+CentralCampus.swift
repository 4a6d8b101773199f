private typealias P = Photographers

extension SandboxCatalogue {
    /// Hoover Tower, the Main Quad, Memorial Church, Green Library, the Oval and White Plaza.
    static let photosOfQuadAndCentralCampus: [CatalogueEntry] = [
        // Hoover Tower
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2012-10-03 18:12",
            title: "Hoover Tower",
            description: "The 285-foot tower of the Hoover Institution, seen from the east.",
            tags: "cs193pspot hoovertower portrait stanford",
            portrait: true
        ),
        CatalogueEntry(
            owner: P.ana,
            uploaded: "2016-05-21 02:47",
            title: "Hoover at dusk",
            description: #"Carillon bells at 6pm &mdash; 48 of them. Observation deck is <b>$5</b> for visitors, free with a student ID."#,
            tags: "cs193pspot HooverTower portrait dusk carillon",
            portrait: true
        ),
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2014-02-11 21:30",
            title: #"<script>alert("spot")</script> Hoover Tower from the Quad"#,
            description: "Someone thought a title was a good place for a script tag. It is not.",
            tags: "cs193pspot hoovertower landscape"
        ),
        CatalogueEntry(
            owner: P.keiko,
            uploaded: "2019-04-07 00:05",
            title: "フーバータワーの展望台から",
            description: "展望台からの眺め。晴れた日にはサンフランシスコ湾まで見えます。🌉",
            tags: "cs193pspot hoovertower landscape 展望台 view"
        ),

        // Main Quad
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2012-09-28 16:40",
            title: "Main Quad arcades",
            description: "Sandstone arcades and red tile roofs, 1891. Jane and Leland Stanford wanted the buildings to last.",
            tags: "cs193pspot mainquad landscape architecture sandstone"
        ),
        CatalogueEntry(
            owner: P.priya,
            uploaded: "2017-09-15 19:22",
            title: "",
            description: "",
            tags: "cs193pspot mainquad landscape"
        ),
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2013-03-14 22:18",
            title: "Quad in the rain ☔",
            description:
                #"Rare wet day. Puddles on the <a href="https://en.wikipedia.org/wiki/Main_Quad_(Stanford_University)" rel="nofollow">Main Quad</a> reflect the church."#,
            tags: "cs193pspot MainQuad landscape rain reflections"
        ),
        CatalogueEntry(
            owner: P.sam,
            uploaded: "2021-06-12 17:55",
            title: "Commencement week",
            description: "Chairs set out for diplomas. Congrats, class of '21 🎓🎉",
            tags: "cs193pspot mainquad landscape commencement graduation"
        ),

        // Memorial Church — one photo also stands on the Main Quad.
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2012-11-19 20:02",
            title: "Memorial Church facade",
            description: "The mosaic is Venetian glass: <i>Christ welcoming the faithful</i>.",
            tags: "cs193pspot memorialchurch portrait mosaic",
            portrait: true
        ),
        CatalogueEntry(
            owner: P.wei,
            uploaded: "2018-01-20 23:41",
            title: "斯坦福纪念教堂",
            description: "纪念教堂正面的马赛克在下午的阳光下闪闪发光。&lt;3",
            tags: "cs193pspot memorialchurch mainquad landscape 教堂"
        ),
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2015-12-24 05:30",
            title: "IMG_4021",
            description: "",
            tags: "cs193pspot memorialchurch portrait christmas",
            portrait: true
        ),
        CatalogueEntry(
            owner: P.masha,
            uploaded: "2022-08-02 18:14",
            title: "Мемориальная церковь",
            description: "Орган Фиска–Нанни, концерт в воскресенье. Очень рекомендую!",
            tags: "cs193pspot memorialchurch portrait organ",
            portrait: true
        ),

        // Green Library
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2013-01-17 19:09",
            title: "Green Library, Bing Wing",
            description: "The Bing Wing's reading room: long tables, green lamps, quiet.",
            tags: "cs193pspot greenlibrary landscape library"
        ),
        CatalogueEntry(
            owner: P.priya,
            uploaded: "2016-11-30 03:12",
            title: "Finals week",
            description: "Open until 2am. Bring snacks &amp; a sweater — the AC is merciless.",
            tags: "cs193pspot greenlibrary landscape finals studying"
        ),
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2014-06-02 17:27",
            title: "Green Library east entrance",
            description: #"Hours: <a href="https://library.stanford.edu/libraries/green">library.stanford.edu</a><br />Visitors need a pass."#,
            tags: "greenlibrary portrait",
            portrait: true
        ),
        CatalogueEntry(
            owner: P.jonas,
            uploaded: "2023-02-08 21:48",
            title: "Bücherregale",
            description: "Endlose Regale im Ostflügel. Ich habe mich zweimal verlaufen.",
            tags: "cs193pspot greenlibrary books",
            geotagged: false
        ),

        // The Oval
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2012-10-15 22:36",
            title: "The Oval",
            description: "The grass oval in front of the Main Quad, with the red \"S\" planted in flowers.",
            tags: "cs193pspot oval landscape lawn"
        ),
        CatalogueEntry(
            owner: P.ana,
            uploaded: "2018-04-28 20:10",
            title: "  Picnic on the Oval  ",
            description: "Frisbee, sandwiches, sunburn. 🥪🥏☀️",
            tags: "cs193pspot Oval landscape picnic spring"
        ),
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2015-09-21 16:03",
            title: "Palm Drive meets the Oval",
            description: "The mile of palms ends here. Photo from the top of the Quad steps.",
            tags: "cs193pspot oval portrait palmdrive",
            portrait: true
        ),
        CatalogueEntry(
            owner: P.sam,
            uploaded: "2020-03-01 01:25",
            title: "Oval at golden hour",
            description: "Shot on my phone, no filter (ok, a little filter).",
            tags: "cs193pspot oval landscape goldenhour",
            original: false
        ),

        // The Claw, White Plaza
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2013-05-09 18:50",
            title: "The Claw",
            description: "Aristides Demetrios' fountain in White Plaza. Traditionally, people jump in on their birthday.",
            tags: "cs193pspot theclaw landscape fountain whiteplaza"
        ),
        CatalogueEntry(
            owner: P.priya,
            uploaded: "2019-10-04 19:31",
            title: "Activities fair",
            description: "Every club on campus, all at once, all shouting. The Claw watches.",
            tags: "cs193pspot theclaw landscape activitiesfair"
        ),
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2016-02-14 23:59",
            title: "Claw, valentine's night",
            description: "Someone dyed the water pink. Facilities did not approve.",
            tags: "cs193pspot TheClaw portrait",
            portrait: true
        ),
        CatalogueEntry(
            owner: P.wei,
            uploaded: "2024-01-19 22:07",
            title: "喷泉",
            description: "",
            tags: "cs193pspot theclaw landscape fountain"
        ),
    ]
}
