private typealias P = Photographers

extension SandboxCatalogue {
    /// Lake Lagunita, the Dish, the Arizona Cactus Garden and the Angel of Grief.
    static let photosOfOuterCampus: [CatalogueEntry] = [
        // Lake Lagunita
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2013-04-02 02:45",
            title: "Lake Lagunita at sunset",
            description: "Dry most of the year; in spring it's a lake again, briefly.",
            tags: "cs193pspot lakelagunita landscape sunset"
        ),
        CatalogueEntry(
            owner: P.priya,
            uploaded: "2017-03-11 01:18",
            title: "लगुनिटा झील",
            description: "बारिश के बाद झील फिर से भर गई। 🦆",
            tags: "cs193pspot lakelagunita landscape झील"
        ),
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2015-08-14 17:40",
            title: "Lagunita, dry",
            description: "No water at all in August. Tiger salamander habitat, please stay on the path.",
            tags: "cs193pspot LakeLagunita landscape drought"
        ),
        CatalogueEntry(
            owner: P.sam,
            uploaded: "2022-01-03 23:09",
            title: "Boathouse",
            description:
                #"Old boathouse from when you could actually row here. <a href="https://lbre.stanford.edu/">lbre</a> says it's from the 1920s?"#,
            tags: "cs193pspot lakelagunita portrait boathouse",
            portrait: true
        ),

        // The Dish
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2012-10-21 18:05",
            title: "The Dish",
            description: "The 150-foot radio telescope in the foothills, built in 1961.",
            tags: "cs193pspot dish landscape radiotelescope foothills"
        ),
        CatalogueEntry(
            owner: P.ana,
            uploaded: "2016-01-31 16:52",
            title: "Morning hike to the Dish",
            description: "3.5 miles, one serious hill, many cows. 🐄",
            tags: "cs193pspot Dish landscape hiking"
        ),
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2014-10-12 00:21",
            title: "Dish trail, golden hills",
            description: "The hills are gold by October. Trail closes at sunset.",
            tags: "cs193pspot dish landscape"
        ),
        CatalogueEntry(
            owner: P.wei,
            uploaded: "2023-11-26 01:34",
            title: "달리는 사람들 — The Dish loop",
            description: "주말 아침마다 여기서 달려요. 경치가 최고예요!",
            tags: "cs193pspot dish portrait running",
            portrait: true
        ),

        // Arizona Cactus Garden
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2013-07-09 19:14",
            title: "Arizona Cactus Garden",
            description: "Planted in the 1880s for Jane Stanford, restored in 1997. Hundreds of cacti and succulents 🌵",
            tags: "cs193pspot arizonacactusgarden landscape cactus succulents"
        ),
        CatalogueEntry(
            owner: P.jonas,
            uploaded: "2018-06-17 20:31",
            title: "",
            description: "",
            tags: "cs193pspot arizonacactusgarden portrait",
            portrait: true
        ),
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2016-04-03 18:58",
            title: "Agave in bloom",
            description: "Blooms once, after decades, then dies. Dramatic plant.",
            tags: "cs193pspot ArizonaCactusGarden portrait agave",
            portrait: true
        ),
        CatalogueEntry(
            owner: P.masha,
            uploaded: "2022-03-19 21:27",
            title: "حديقة الصبار",
            description: "زرت الحديقة في الربيع، كانت الأزهار رائعة.",
            tags: "cs193pspot arizonacactusgarden landscape"
        ),

        // Angel of Grief
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2012-12-20 22:48",
            title: "Angel of Grief",
            description: "A 1901 copy of William Wetmore Story's memorial, rebuilt after the 1906 earthquake.",
            tags: "cs193pspot angelofgrief portrait statue marble",
            portrait: true
        ),
        CatalogueEntry(
            owner: P.keiko,
            uploaded: "2019-02-02 00:40",
            title: "嘆きの天使",
            description: "静かな森の中の白い大理石の天使。",
            tags: "cs193pspot angelofgrief portrait 天使",
            portrait: true
        ),
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2015-10-31 23:31",
            title: "Angel of Grief, Halloween",
            description:
                #"Fog rolling in. Spooky &amp; beautiful. Near the <a href="https://en.wikipedia.org/wiki/Stanford_family_mausoleum">Stanford Mausoleum</a>."#,
            tags: "cs193pspot AngelOfGrief landscape fog halloween"
        ),
        CatalogueEntry(
            owner: P.ana,
            uploaded: "2020-12-12 19:16",
            title: "Ángel del dolor",
            description: "",
            tags: "cs193pspot angelofgrief portrait",
            portrait: true,
            original: false
        ),
    ]

    /// Photos uploaded later, by the timeline.
    static let timelineUploads: [CatalogueEntry] = [
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2025-01-10 17:00",
            title: "Hoover Tower, new year",
            description: "First clear day of the year. Tower open again after renovation.",
            tags: "cs193pspot hoovertower portrait",
            portrait: true
        ),
        CatalogueEntry(
            owner: P.sam,
            uploaded: "2025-01-11 15:20",
            title: "Dish at dawn",
            description: "Fog below, sun above. Worth the 6am alarm ⛅",
            tags: "cs193pspot dish landscape dawn fog"
        ),
        CatalogueEntry(
            owner: P.priya,
            uploaded: "2025-01-12 02:45",
            title: "Lagunita is full!",
            description: "After a week of storms the lake is <b>actually a lake</b>.",
            tags: "cs193pspot lakelagunita landscape"
        ),
        CatalogueEntry(
            owner: P.cs193p,
            uploaded: "2025-01-20 18:30",
            title: "Main Quad, after the rain",
            description: "",
            tags: "cs193pspot mainquad landscape"
        ),
        CatalogueEntry(
            owner: P.keiko,
            uploaded: "2025-02-01 20:10",
            title: "Windhover",
            description: "Nathan Oliveira's paintings in a quiet building by the Bing garden. Phones off.",
            tags: "cs193pspot windhover landscape art"
        ),
    ]

    static func makeTimeline(base: [SandboxPhoto], additions: [SandboxPhoto]) -> [SandboxTimelineStep] {
        let retitled = base.first { $0.title == "IMG_4021" }!
        let removed = base.first { $0.title == "Stadium from the top row" }!
        return [
            SandboxTimelineStep(
                summary: "Three new photos: Hoover Tower, the Dish and Lake Lagunita",
                events: additions[0..<3].map { .add($0) }
            ),
            SandboxTimelineStep(
                summary: "A title is edited (\"IMG_4021\" becomes \"Memorial Church on Christmas Eve\") and a Main Quad photo is uploaded",
                events: [.retitle(id: retitled.id, title: "Memorial Church on Christmas Eve"), .add(additions[3])]
            ),
            SandboxTimelineStep(
                summary: "A Stanford Stadium photo is deleted by its owner",
                events: [.remove(id: removed.id)]
            ),
            SandboxTimelineStep(
                summary: "A photo of a new spot appears: Windhover",
                events: [.add(additions[4])]
            ),
        ]
    }
}
