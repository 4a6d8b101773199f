import Foundation
import ObjectGraph
import ObjectGraphData
import ObjectGraphPostgres
import Testing
import TestSupport

/// A postal address: a Codable struct, stored as SwiftData stores one (a composite attribute).
struct Address: Codable, Hashable {
    var street: String
    var city: String
    var postcode: Int?
    var since: Date
}

/// A customer with a composite address, an optional one, an enum with raw values and an
/// array (encoded).
@Model
final class Customer {
    var name: String
    var address: Address
    var previousAddress: Address?
    var membership: Membership = Membership.basic
    var nicknames: [String] = []

    init(name: String, address: Address) {
        self.name = name
        self.address = address
    }

    /// An enum with raw values, stored as its raw value.
    enum Membership: String, Codable {
        case basic, gold
    }
}

/// `Codable` structs stored one column per leaf, enums as their raw values, on an SQLite file
/// and on PostgreSQL.
@Suite("ObjectGraphData composite attributes")
struct CompositeAttributeTests {
    /// The store kinds the tests run on.
    enum Store: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }

        /// A configuration of a new, empty store of this kind. The PostgreSQL store type is
        /// registered first: the tests are their program's root, and must not count on another
        /// suite having registered it.
        func configuration() throws -> ModelConfiguration {
            switch self {
            case .sqlite:
                return ModelConfiguration(url: TestFiles.url("composite.store"))
            case .postgres:
                PersistentStoreCoordinator.registerPostgreSQLStoreType()
                return ModelConfiguration(url: try TestPostgres.newSchemaURL(prefix: "ogdcomp"), storeType: PostgreSQLStoreType)
            }
        }
    }

    static let since = Date(timeIntervalSinceReferenceDate: 700_000_000)

    @Test("A struct's leaves and an enum's raw value survive a save and a new container", arguments: Store.allCases)
    func roundTrip(store: Store) throws {
        var configuration = try store.configuration()
        let context = ModelContext(try ModelContainer(for: Customer.self, configurations: configuration))
        let ada = Customer(name: "Ada", address: Address(street: "1 Infinite Loop", city: "Cupertino", postcode: 95014, since: Self.since))
        ada.previousAddress = Address(street: "Main St", city: "Palo Alto", postcode: nil, since: Self.since)
        ada.membership = .gold
        ada.nicknames = ["A", "Countess"]
        context.insert(ada)
        context.insert(Customer(name: "Bob", address: Address(street: "2 Elm", city: "Palo Alto", postcode: 94301, since: Self.since)))
        try context.save()
        ada.address.city = "San José"
        try context.save()

        let log = StatementLog()
        configuration.sqlStatementObserver = { log.append($0) }
        let other = ModelContext(try ModelContainer(for: Customer.self, configurations: configuration))
        let fetched = try other.fetch(FetchDescriptor<Customer>(sortBy: [SortDescriptor(\.name)]))
        #expect(fetched.map(\.name) == ["Ada", "Bob"])
        #expect(fetched[0].address == Address(street: "1 Infinite Loop", city: "San José", postcode: 95014, since: Self.since))
        #expect(fetched[0].previousAddress == Address(street: "Main St", city: "Palo Alto", postcode: nil, since: Self.since))
        #expect(fetched[1].previousAddress == nil)
        #expect(fetched[0].membership == .gold)
        #expect(fetched[1].membership == .basic)
        #expect(fetched[0].nicknames == ["A", "Countess"])
        // One column per leaf, as Core Data lays out a composite attribute (the SQL log is
        // the SQLite store's; the PostgreSQL store has none).
        guard store == .sqlite else { return }
        let select = log.lines.first { $0.uppercased().contains("FROM ZCUSTOMER") }?.uppercased() ?? ""
        for column in ["ZADDRESS_STREET", "ZADDRESS_CITY", "ZADDRESS_POSTCODE", "ZADDRESS_SINCE", "ZPREVIOUSADDRESS_CITY", "ZMEMBERSHIP"] {
            #expect(select.contains(column), "\(column) in \(select)")
        }
        #expect(!select.contains("ZADDRESS,") && !select.contains("ZADDRESS "))
    }

    @Test("A predicate on a struct's leaf or an enum compiles to SQL and selects the right rows", arguments: Store.allCases)
    func predicates(store: Store) throws {
        var configuration = try store.configuration()
        let log = StatementLog()
        configuration.sqlStatementObserver = { log.append($0) }
        let context = ModelContext(try ModelContainer(for: Customer.self, configurations: configuration))
        for (name, city, postcode) in [("Ada", "Cupertino", 95014), ("Bob", "Palo Alto", 94301), ("Cy", "Palo Alto", 94306)] {
            let customer = Customer(name: name, address: Address(street: "1 Main", city: city, postcode: postcode, since: Self.since))
            customer.membership = name == "Cy" ? .gold : .basic
            context.insert(customer)
        }
        try context.save()

        let inPaloAlto = #Predicate<Customer> { $0.address.city == "Palo Alto" }
        let translation = context.translation(of: FetchDescriptor(predicate: inPaloAlto))
        #expect(translation.isFullyTranslated)
        #expect(translation.storePredicate?.predicateFormat == "address_city == \"Palo Alto\"")
        let before = log.lines.count
        let names = try context.fetch(FetchDescriptor(predicate: inPaloAlto, sortBy: [SortDescriptor(\.name)])).map(\.name)
        #expect(names == ["Bob", "Cy"])
        #expect(!log.lines[before...].contains { $0.contains("evaluated in memory") })
        if store == .sqlite {
            let query = log.lines[before...].first { $0.uppercased().contains("ZADDRESS_CITY =") }
            #expect(query != nil, "no SELECT filtering on ZADDRESS_CITY in \(log.lines[before...])")
        }

        // A sort on a leaf sorts in the store.
        let sortedFrom = log.lines.count
        let byCity = try context.fetch(FetchDescriptor<Customer>(sortBy: [SortDescriptor(\.address.city, order: .reverse), SortDescriptor(\.name)]))
        #expect(byCity.map(\.name) == ["Bob", "Cy", "Ada"])
        #expect(!log.lines[sortedFrom...].contains { $0.contains("in memory") })
        if store == .sqlite {
            #expect(log.lines[sortedFrom...].contains { $0.uppercased().contains("ORDER BY") && $0.uppercased().contains("ZADDRESS_CITY") })
        }

        let gold = Customer.Membership.gold
        let goldInPaloAlto = #Predicate<Customer> { $0.membership == gold && ($0.address.postcode ?? 0) > 94302 }
        #expect(context.translation(of: FetchDescriptor(predicate: goldInPaloAlto)).isFullyTranslated)
        #expect(try context.fetch(FetchDescriptor(predicate: goldInPaloAlto)).map(\.name) == ["Cy"])
    }

    @Test("A predicate on an array attribute (stored encoded) is evaluated in memory, and says so", arguments: Store.allCases)
    func arrayAttributes(store: Store) throws {
        var configuration = try store.configuration()
        let log = StatementLog()
        configuration.sqlStatementObserver = { log.append($0) }
        let context = ModelContext(try ModelContainer(for: Customer.self, configurations: configuration))
        for (name, nicknames) in [("Ada", ["A", "Countess"]), ("Bob", ["B"]), ("Cy", [])] {
            let customer = Customer(name: name, address: Address(street: "1 Main", city: "Palo Alto", postcode: nil, since: Self.since))
            customer.nicknames = nicknames
            context.insert(customer)
        }
        try context.save()

        let predicates: [(Predicate<Customer>, [String])] = [
            (#Predicate { $0.nicknames.contains("B") }, ["Bob"]),
            (#Predicate { $0.nicknames.contains { $0.starts(with: "C") } }, ["Ada"]),
            (#Predicate { $0.nicknames.isEmpty }, ["Cy"]),
            (#Predicate { $0.nicknames.count > 1 && $0.name != "" }, ["Ada"]),
        ]
        for (predicate, expected) in predicates {
            let descriptor = FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.name)])
            #expect(!context.translation(of: descriptor).isFullyTranslated)
            let before = log.lines.count
            #expect(try context.fetch(descriptor).map(\.name) == expected)
            #expect(log.lines[before...].contains { $0.contains("evaluated in memory") })
        }
    }
}
