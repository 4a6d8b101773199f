import Foundation

extension ManagedObject {
    /// The failures of `.deny` rules that refuse this object's deletion.
    func denyFailures() -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        for slot in entity.relationshipSlots {
            guard let relationship = entity.allProperties[slot] as? RelationshipDescription, relationship.deleteRule == .deny else { continue }
            let count = relationship.isToMany ? toManyMembers(at: slot).count : (storage.values[slot].isNull ? 0 : 1)
            if count > 0 {
                var denied = failure(
                    key: relationship.name,
                    "delete denied: relationship '\(relationship.name)' still holds \(count) object\(count == 1 ? "" : "s") and its delete rule is deny"
                )
                denied.deniesDelete = true
                failures.append(denied)
            }
        }
        return failures
    }

    /// Checks one value against the rules of the property `key` (type, required, range,
    /// length, pattern, validation predicates).
    ///
    /// - Throws: ``ObjectGraphError`` naming the key and the broken rule.
    func validateSingleValue(_ value: Any?, forKey key: String) throws {
        guard let slot = entity.slotByName[key] else {
            throw ObjectGraphError(.unknownKey, "\(entity.name) has no property '\(key)'", failures: [failure(key: key, "unknown key")])
        }
        guard let attribute = entity.allProperties[slot] as? AttributeDescription else { return }
        guard let stored = attribute.storedValue(from: value) else {
            throw ObjectGraphError(
                .typeMismatch,
                "\(entity.name).\(key) expects \(attribute.attributeType.swiftTypeName)",
                failures: [failure(key: key, "expected \(attribute.attributeType.swiftTypeName)")]
            )
        }
        try throwIfInvalid(attributeFailures(attribute, stored))
    }

    func throwIfInvalid(_ failures: [ValidationFailure]) throws {
        guard !failures.isEmpty else { return }
        throw ObjectGraphError(
            .validationMultipleErrors,
            "\(entity.name) \(objectID) is invalid",
            failures: failures
        )
    }

    /// Every broken property rule of the object.
    func propertyFailures() -> [ValidationFailure] {
        fulfillIfNeeded()
        var failures: [ValidationFailure] = []
        let properties = entity.allProperties
        let plan = entity.frozenValidationPlan ?? ValidationPlan(properties)
        for slot in plan.requiredSlots where storage.values[slot].isNull {
            failures.append(contentsOf: attributeFailures(properties[slot] as! AttributeDescription, .null))
        }
        for slot in plan.ruledSlots {
            switch properties[slot] {
            case let attribute as AttributeDescription:
                // The plan lists only attributes with value rules here.
                failures.append(contentsOf: attributeFailures(attribute, storage.values[slot]))
            case let relationship as RelationshipDescription:
                if relationship.isToMany {
                    // Only count members when a rule limits the count and they may have
                    // changed: loading them costs a query (adding a photo to a tag with
                    // thousands of photos must not read them all).
                    let minimum = max(relationship.minCount, relationship.isOptional ? 0 : 1)
                    guard minimum > 0 || relationship.maxCount > 0 else { continue }
                    guard isInserted || storage.isChanged(slot) else { continue }
                    let count = toManyMembers(at: slot).count
                    if count < minimum {
                        failures.append(
                            failure(key: relationship.name, "has \(count) object\(count == 1 ? "" : "s"), fewer than the minimum \(minimum)")
                        )
                    }
                    if relationship.maxCount > 0 && count > relationship.maxCount {
                        failures.append(failure(key: relationship.name, "has \(count) objects, more than the maximum \(relationship.maxCount)"))
                    }
                } else if !relationship.isOptional && storage.values[slot].isNull {
                    failures.append(
                        failure(key: relationship.name, "is required (a \(relationship.destinationEntity?.name ?? "related object")) but is nil")
                    )
                }
            default:
                break
            }
        }
        return failures
    }

    private func attributeFailures(_ attribute: AttributeDescription, _ value: Value) -> [ValidationFailure] {
        let key = attribute.name
        if value.isNull {
            if !attribute.isOptional && !attribute.isTransient {
                return [failure(key: key, "is required (\(attribute.attributeType.swiftTypeName)) but is nil")]
            }
            return []
        }
        var failures: [ValidationFailure] = []
        if !attribute.minStoredValue.isNull, let order = Value.sortCompare(value, attribute.minStoredValue), order == .orderedAscending {
            failures.append(failure(key: key, "\(describe(value)) is less than the minimum \(describe(attribute.minStoredValue))"))
        }
        if !attribute.maxStoredValue.isNull, let order = Value.sortCompare(value, attribute.maxStoredValue), order == .orderedDescending {
            failures.append(failure(key: key, "\(describe(value)) is greater than the maximum \(describe(attribute.maxStoredValue))"))
        }
        let length: Int? =
            switch value {
            case .string(let string): string.count
            case .data(let data): attribute.attributeType == .binaryData ? data.count : nil
            default: nil
            }
        if let length {
            if let minimum = attribute.minLength, length < minimum {
                failures.append(failure(key: key, "is \(length) long, shorter than the minimum length \(minimum)"))
            }
            if let maximum = attribute.maxLength, length > maximum {
                failures.append(failure(key: key, "is \(length) long, longer than the maximum length \(maximum)"))
            }
        }
        if let pattern = attribute.regularExpression, case .string(let string) = value,
            let regex = try? NSRegularExpression(pattern: pattern)
        {
            let range = NSRange(string.startIndex..., in: string)
            let match = regex.firstMatch(in: string, options: [.anchored], range: range)
            if match == nil || match!.range != range {
                failures.append(failure(key: key, "\(describe(value)) does not match the pattern \(pattern)"))
            }
        }
        if !attribute.validationPredicates.isEmpty {
            let publicValue: Any?
            do {
                publicValue = try attribute.decodedValue(from: value)
            } catch {
                failures.append(failure(key: key, "\(error)"))
                return failures
            }
            for (index, predicate) in attribute.validationPredicates.enumerated() {
                let passed: Bool
                var problem = ""
                do {
                    passed = try predicate.evaluate(with: publicValue)
                } catch {
                    // A predicate that cannot be evaluated does not pass; say why.
                    passed = false
                    problem = " (\(error))"
                }
                if !passed {
                    let warning =
                        index < attribute.validationWarnings.count ? attribute.validationWarnings[index] : "fails validation predicate \(predicate)"
                    failures.append(failure(key: key, warning + problem))
                }
            }
        }
        return failures
    }

    private func describe(_ value: Value) -> String {
        switch value {
        case .string(let string): "\"\(string)\""
        case .int(let int): "\(int)"
        case .double(let double): "\(double)"
        case .decimal(let decimal): "\(decimal)"
        case .date(let date): "\(date)"
        case .bool(let bool): "\(bool)"
        default: "\(value)"
        }
    }
}

/// Which of an entity's slots validation checks, and how: a save of 50,000 objects spent ~400
/// instructions per object casting and copying each property's value to find that most of
/// them have no rule, or only the rule that they are not nil. A class, so that reading an
/// entity's plan retains one reference instead of copying two arrays.
final class ValidationPlan {
    /// Attributes whose only rule is that they are not nil (required, not transient).
    let requiredSlots: [Int]
    /// Every other property with a rule a value can break (range, length, pattern,
    /// predicates, member counts, a required relationship).
    let ruledSlots: [Int]

    init(_ properties: [PropertyDescription]) {
        var requiredSlots: [Int] = []
        var ruledSlots: [Int] = []
        for (slot, property) in properties.enumerated() {
            switch property {
            case let attribute as AttributeDescription:
                if attribute.hasValueRules {
                    ruledSlots.append(slot)
                } else if !attribute.isOptional && !attribute.isTransient {
                    requiredSlots.append(slot)
                }
            case let relationship as RelationshipDescription:
                let counted = relationship.isToMany && (relationship.minCount > 0 || relationship.maxCount > 0)
                if counted || !relationship.isOptional { ruledSlots.append(slot) }
            default:
                break
            }
        }
        self.requiredSlots = requiredSlots
        self.ruledSlots = ruledSlots
    }
}
