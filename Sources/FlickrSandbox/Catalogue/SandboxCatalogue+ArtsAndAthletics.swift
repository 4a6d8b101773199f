private typealias P = Photographers

extension SandboxCatalogue {
    /// The Rodin garden, Cantor, Bing, Frost, the Stadium and the Papua New Guinea garden.
    static let photosOfArtsAndAthletics: [CatalogueEntry] = [
        // Rodin Sculpture Garden — one photo also belongs to Cantor Arts Center.
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2012-11-02 19:44",
            title: "The Gates of Hell",
            description: "Rodin's <i>Gates of Hell</i>, cast in 1981 from the original plaster. Look for The Thinker at the top.",
            tags: "cs193pspot rodinsculpturegarden portrait rodin bronze",
            portrait: true
        ),
        CatalogueEntry(
            owner: P.ana,
            uploaded: "2017-07-08 00:33",
            title: "The Burghers of Calais",
            description: #"Six burghers, life size. "<em>Les Bourgeois de Calais</em>" &ndash; 1889."#,
            tags: "cs193pspot rodinsculpturegarden cantorartscenter landscape rodin"
        ),
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2014-08-19 18:20",
            title: "Thinker, thinking",
            description: "",
            tags: "cs193pspot RodinSculptureGarden portrait",
            portrait: true
        ),
        CatalogueEntry(
            owner: P.keiko,
            uploaded: "2020-11-11 02:16",
            title: "ロダン彫刻庭園",
            description: "夕方の光がブロンズを金色に染めていました。",
            tags: "cs193pspot rodinsculpturegarden landscape 彫刻"
        ),

        // Cantor Arts Center
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2013-02-22 20:58",
            title: "Cantor Arts Center",
            description: "Free admission, closed Mondays & Tuesdays. The Stanford family collection is upstairs.",
            tags: "cs193pspot cantorartscenter landscape museum"
        ),
        CatalogueEntry(
            owner: P.masha,
            uploaded: "2021-10-17 21:40",
            title: "Выставка в Кантор-центре",
            description: #"Новая выставка &laquo;Свет и тень&raquo;. Подробнее: <a href="https://museum.stanford.edu">museum.stanford.edu</a>"#,
            tags: "cs193pspot cantorartscenter portrait museum",
            portrait: true
        ),
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2016-03-05 17:12",
            title: "Cantor lobby",
            description: "Skylight, staircase, and a very patient guard.",
            tags: "cs193pspot cantorartscenter landscape",
            original: false
        ),
        CatalogueEntry(
            owner: P.jonas,
            uploaded: "2019-06-23 19:03",
            title: "Stairs",
            description: "",
            tags: "cs193pspot cantorartscenter portrait minimal",
            portrait: true
        ),

        // Bing Concert Hall
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2013-01-11 04:15",
            title: "Bing Concert Hall opening night",
            description: "The vineyard-style hall opened in January 2013. Every seat is within 75 feet of the stage.",
            tags: "cs193pspot bingconcerthall landscape music architecture"
        ),
        CatalogueEntry(
            owner: P.priya,
            uploaded: "2018-02-03 05:51",
            title: "Symphony 🎻",
            description: "Stanford Symphony Orchestra playing Dvořák's 9th. Goosebumps during the Largo.",
            tags: "cs193pspot bingconcerthall landscape symphony dvorak"
        ),
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2015-05-30 18:37",
            title: "Bing, outside",
            description: "The curved brick and glass wall, from the Green.",
            tags: "cs193pspot BingConcertHall landscape"
        ),
        CatalogueEntry(
            owner: P.wei,
            uploaded: "2022-04-09 03:44",
            title: "音乐厅夜景",
            description: "演出结束后,大厅的灯光映在水面上。",
            tags: "cs193pspot bingconcerthall portrait night",
            portrait: true
        ),

        // Frost Amphitheater
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2012-12-07 21:24",
            title: "Frost Amphitheater",
            description: "A grass bowl for 7,000. The Grateful Dead played here, more than once.",
            tags: "cs193pspot frostamphitheater landscape concert"
        ),
        CatalogueEntry(
            owner: P.sam,
            uploaded: "2019-09-14 04:30",
            title: "Frost Fest",
            description: "Sound check at sunset. We got there 3 hours early &amp; it was worth it.",
            tags: "cs193pspot frostamphitheater landscape frostfest music"
        ),
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2014-04-25 16:45",
            title: "Empty terraces",
            description: "Early morning, sprinklers on, not a soul.",
            tags: "cs193pspot FrostAmphitheater landscape morning"
        ),
        CatalogueEntry(
            owner: P.ana,
            uploaded: "2023-07-01 05:02",
            title: "Noche de concierto en el Frost",
            description: "¡Qué noche! Miles de personas cantando bajo las estrellas ✨",
            tags: "cs193pspot frostamphitheater portrait concierto",
            portrait: true
        ),

        // Stanford Stadium
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2012-11-25 06:10",
            title: "Big Game",
            description: "Stanford vs. Cal, the Axe on the line. 🏈",
            tags: "cs193pspot stanfordstadium landscape biggame football"
        ),
        CatalogueEntry(
            owner: P.jonas,
            uploaded: "2017-10-22 01:38",
            title: "Stadium from the top row",
            description: "50,424 seats and I picked the highest one.",
            tags: "cs193pspot stanfordstadium landscape"
        ),
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2015-11-21 23:15",
            title: "Band run-on",
            description: #"The LSJUMB, doing whatever it is they do. <a href="http://lsjumb.stanford.edu/">lsjumb.stanford.edu</a>"#,
            tags: "cs193pspot StanfordStadium portrait band",
            portrait: true
        ),
        CatalogueEntry(
            owner: P.priya,
            uploaded: "2024-09-01 03:20",
            title: "",
            description: "Night game, lights on.",
            tags: "cs193pspot stanfordstadium landscape night"
        ),

        // Papua New Guinea Sculpture Garden
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2013-06-18 17:33",
            title: "Papua New Guinea Sculpture Garden",
            description: "Carved on site in 1994 by ten artists from the Sepik River region.",
            tags: "cs193pspot papuanewguineasculpturegarden portrait sculpture wood",
            portrait: true
        ),
        CatalogueEntry(
            owner: P.keiko,
            uploaded: "2018-08-12 22:26",
            title: "木と石の彫刻",
            description: "木彫りの顔がたくさん。静かで涼しい場所です。",
            tags: "cs193pspot papuanewguineasculpturegarden landscape 彫刻"
        ),
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2016-07-27 19:49",
            title: "Carved poles",
            description: "",
            tags: "cs193pspot papuanewguineasculpturegarden portrait",
            portrait: true,
            geotagged: false
        ),
        CatalogueEntry(
            owner: P.masha,
            uploaded: "2021-05-05 18:11",
            title: "Сад скульптур Папуа — Новой Гвинеи",
            description: "Тихое место за общежитиями. Мало кто о нём знает.",
            tags: "cs193pspot PapuaNewGuineaSculptureGarden landscape"
        ),
    ]
}
