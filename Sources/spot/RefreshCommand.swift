import ArgumentParser
import Foundation
import SPoTKit

/// `spot refresh`: fetch the photos from Flickr (or the sandbox) into the database.
struct RefreshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract: "Fetch SPoT's photos from Flickr into the database.",
        discussion: "Imports every page of Flickr's cs193pspot photos, one save per page; a photo you hid stays hidden."
    )

    @OptionGroup var options: SpotOptions

    func run() async throws {
        let table = options.format.isTable
        try await options.withSPoT { spot in
            let updates = await spot.refresher.statusUpdates()
            let printer = Task {
                var lastPage = 0
                for await status in updates where status.isRunning && status.pagesDone > lastPage {
                    lastPage = status.pagesDone
                    if table {
                        FileHandle.standardOutput.write(Data(("\r" + Self.progressBar(status)).utf8))
                    } else {
                        print("page \(status.pagesDone) of \(status.pagesTotal): \(status.newPhotos) new, \(status.updatedPhotos) updated")
                    }
                }
            }
            let status = await spot.refresher.refresh()
            printer.cancel()
            _ = await printer.value
            if table && status.pagesDone > 0 { print("") }
            if let error = status.lastError {
                throw SPoTError(.flickr, "refresh failed: \(error) (the database keeps what it had)")
            }
            let counts = try await spot.store.counts()
            print(Self.summary(status, counts))
        }
    }

    /// `[##########----------]  1/2 pages  69 new  0 updated`
    static func progressBar(_ status: RefreshStatus) -> String {
        let width = 20
        let filled = Int((status.fractionDone * Double(width)).rounded())
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        return "[\(bar)]  \(status.pagesDone)/\(status.pagesTotal) pages  \(status.newPhotos) new  \(status.updatedPhotos) updated"
    }

    /// `Refreshed: 69 new, 0 updated. 69 photos in 31 spots by 8 photographers.`
    static func summary(_ status: RefreshStatus, _ counts: StoreCounts) -> String {
        let hidden = counts.hiddenPhotos > 0 ? " (\(counts.hiddenPhotos) hidden)" : ""
        let outcome =
            status.refreshedElsewhere
            ? "Another process is refreshing this database; its photos arrive as it saves them. Now: "
            : "Refreshed: \(status.newPhotos) new, \(status.updatedPhotos) updated. "
        return outcome
            + "\(plural(counts.visiblePhotos, "photo")) in \(plural(counts.spots, "spot")) by \(plural(counts.photographers, "photographer"))\(hidden)."
    }
}

/// "1 photo", "2 photos".
func plural(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
