import Foundation

/// Numbers, format-specifier arguments and `CAST(…)` constants.
extension PredicateParser {
    /// The value of a number literal: an `.int` when it fits in `Int64` and has no fraction or
    /// exponent, a `.double` otherwise.
    func number(_ digits: String, radix: Int, negative: Bool, at token: PredicateToken) throws -> Value {
        let sign = negative ? "-" : ""
        if radix == 10 {
            if !digits.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let int = Int64(sign + digits) {
                return .int(int)
            }
            guard let double = Double(sign + digits) else {
                throw error(.syntax, "Malformed number", at: token)
            }
            return .double(double)
        }
        if let int = Int64(sign + digits, radix: radix) { return .int(int) }
        var magnitude = 0.0
        for digit in digits { magnitude = magnitude * Double(radix) + Double(digit.hexDigitValue ?? 0) }
        return .double(negative ? -magnitude : magnitude)
    }

    /// The expression a format specifier stands for, made from the next argument.
    mutating func argument(for specifier: String, at token: PredicateToken) throws -> ExpressionNode {
        guard argumentIndex < arguments.count else {
            throw error(
                .wrongArgumentCount,
                "Missing argument",
                at: token,
                detail: "the format has more specifiers than the \(arguments.count) argument(s) given"
            )
        }
        let raw = arguments[argumentIndex]
        argumentIndex += 1
        let number = argumentIndex
        func wrongType(_ expected: String) -> FetchPredicateError {
            error(
                .wrongArgumentType,
                "Wrong argument type",
                at: token,
                detail: "argument \(number) (\(PredicateArgument.typeName(raw))) is not \(expected)"
            )
        }
        if specifier == "K" {
            guard let path = PredicateArgument.keyPathString(raw), let expression = Self.keyPath(path) else {
                throw wrongType("a key path")
            }
            return expression
        }
        guard let value = PredicateArgument.value(from: raw) else { throw wrongType("a predicate value") }
        switch specifier {
        case "@":
            return .constant(value)
        case "f", "g", "e", "lf":
            guard let double = PredicateArgument.double(value) else { throw wrongType("a number") }
            return .constant(.double(double))
        default:
            guard let int = PredicateArgument.integer(value) else { throw wrongType("an integer") }
            return .constant(.int(int))
        }
    }

    /// The expression for a `%K` argument such as `tags.@count` or `author.name`; `nil` if a
    /// component is not a key.
    static func keyPath(_ path: String) -> ExpressionNode? {
        let components = path.precomposed.split(
            separator: ".",
            omittingEmptySubsequences: false
        ).map(String.init)
        var expression = ExpressionNode.evaluatedObject
        var index = 0
        while index < components.count {
            let component = components[index]
            if component.hasPrefix("@") {
                let name = String(component.dropFirst())
                let keys = Array(components[(index + 1)...])
                guard isKey(name), keys.allSatisfy(isKey) else { return nil }
                return aggregate(name, base: expression, keys: keys)
            }
            guard isKey(component) else { return nil }
            expression = .keyPath(expression, component)
            index += 1
        }
        return expression
    }

    /// Whether `name` can be written as a key (possibly `#`-escaped).
    static func isKey(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy(PredicateLexer.isIdentifierContinue)
    }

    /// `CAST(value, "Type")`: a constant for the types ObjectGraph prints this way, otherwise
    /// an unsupported expression.
    mutating func parseCast(at token: PredicateToken) throws -> ExpressionNode {
        try expectSymbol("(", "after CAST")
        let value = try parseExpression()
        try expectSymbol(",", "after the value to CAST")
        let type = try parseExpression()
        try expectSymbol(")", "to close the CAST")
        guard case .constant(let constant) = value, case .constant(.string(let typeName)) = type,
            Self.castTypes.contains(typeName)
        else {
            return .unsupported("CAST(\(PredicateFormatter.format(value)), \(PredicateFormatter.format(type)))")
        }
        guard let converted = Self.cast(constant, to: typeName) else {
            throw error(.syntax, "Invalid CAST", at: token, detail: "the value cannot be read as \(typeName)")
        }
        return .constant(converted)
    }

    static let castTypes: Set<String> = [
        "NSDate", "NSDecimalNumber", "NSNumber", "NSUUID", "NSURL", "NSData", "NSManagedObjectID",
    ]

    private static func cast(_ value: Value, to type: String) -> Value? {
        switch (type, value) {
        case ("NSDate", .int(let seconds)): return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
        case ("NSDate", .double(let seconds)): return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case ("NSDecimalNumber", .string(let text)): return Decimal(string: text, locale: nil).map(Value.decimal)
        case ("NSDecimalNumber", .int(let int)): return .decimal(Decimal(int))
        case ("NSNumber", .string(let text)): return Double(text).map(Value.double)
        case ("NSNumber", .int), ("NSNumber", .double): return value
        case ("NSUUID", .string(let text)): return UUID(uuidString: text).map(Value.uuid)
        case ("NSURL", .string(let text)): return URL(string: text).map(Value.url)
        case ("NSData", .string(let text)): return data(hex: text).map(Value.data)
        case ("NSManagedObjectID", .string(let text)):
            return URL(string: text).flatMap(ManagedObjectID.init(uriRepresentation:)).map(Value.objectID)
        default: return nil
        }
    }

    private static func data(hex: String) -> Data? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return Data(bytes)
    }
}
