public import Foundation

extension IndexPath {
    /// An index path of a row in a section, as UIKit's `IndexPath(row:section:)`.
    ///
    /// Foundation provides this initializer only on Apple platforms; here it is part of
    /// ObjectGraph so that fetched-results code ports unchanged.
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
    }

    /// An index path of an item in a section, as UIKit's `IndexPath(item:section:)`.
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// The section: the first index.
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }

    /// The row within the section: the second index.
    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// The item within the section: the second index, as `row`.
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}
