/// W3C WebDriver key codes (Private Use Area characters) for special keys.
///
/// Use them in ``WebDriverSession/sendKeys(_:)`` or ``Element/sendKeys(_:)``,
/// e.g. `session.sendKeys(Key.escape)`.
public enum Key {
    /// Backspace, `\u{E003}`.
    public static let backspace = "\u{E003}"
    /// Tab, `\u{E004}`.
    public static let tab = "\u{E004}"
    /// Return, `\u{E006}`.
    public static let `return` = "\u{E006}"
    /// Enter, `\u{E007}`.
    public static let enter = "\u{E007}"
    /// Shift, `\u{E008}`.
    public static let shift = "\u{E008}"
    /// Control, `\u{E009}`.
    public static let control = "\u{E009}"
    /// Alt, `\u{E00A}`.
    public static let alt = "\u{E00A}"
    /// Escape, `\u{E00C}`.
    public static let escape = "\u{E00C}"
    /// Space, `\u{E00D}`.
    public static let space = "\u{E00D}"
    /// Page up, `\u{E00E}`.
    public static let pageUp = "\u{E00E}"
    /// Page down, `\u{E00F}`.
    public static let pageDown = "\u{E00F}"
    /// End, `\u{E010}`.
    public static let end = "\u{E010}"
    /// Home, `\u{E011}`.
    public static let home = "\u{E011}"
    /// Arrow left, `\u{E012}`.
    public static let arrowLeft = "\u{E012}"
    /// Arrow up, `\u{E013}`.
    public static let arrowUp = "\u{E013}"
    /// Arrow right, `\u{E014}`.
    public static let arrowRight = "\u{E014}"
    /// Arrow down, `\u{E015}`.
    public static let arrowDown = "\u{E015}"
    /// Delete, `\u{E017}`.
    public static let delete = "\u{E017}"
    /// Meta (Command / Windows key), `\u{E03D}`.
    public static let meta = "\u{E03D}"
}

extension WebDriverSession {
    /// Presses and releases each character of `keys`, in order, on whatever has focus
    /// (the page body if nothing does), using the W3C actions API. `keydown`/`keyup`
    /// listeners on `document` and `window` see them.
    public func sendKeys(_ keys: String) async throws {
        var actions: [JSONValue] = []
        for key in keys.unicodeScalars.map(String.init) {
            actions.append(["type": "keyDown", "value": .string(key)])
            actions.append(["type": "keyUp", "value": .string(key)])
        }
        try await performKeyActions(actions)
    }

    /// Holds down all of `keys` in order, then releases them in reverse: a chord such as
    /// `[Key.control, "a"]` or `[Key.shift, Key.tab]`.
    public func pressChord(_ keys: [String]) async throws {
        let down: [JSONValue] = keys.map { ["type": "keyDown", "value": .string($0)] }
        let up: [JSONValue] = keys.reversed().map { ["type": "keyUp", "value": .string($0)] }
        try await performKeyActions(down + up)
    }

    private func performKeyActions(_ actions: [JSONValue]) async throws {
        guard !actions.isEmpty else { return }
        try await command(
            .post,
            "/actions",
            [
                "actions": [["type": "key", "id": "webdriverkit-keyboard", "actions": .array(actions)]]
            ]
        )
        try await command(.delete, "/actions")
    }
}
