import Foundation
import ObjectGraph

/// A `Book` object.
///
/// objectgraph-gen wrote this file once and never rewrites it: add your own code here.
/// The model's properties are in `_Book.swift`, which it rewrites on every run.
public final class Book: _Book {
    /// How many digits the ISBN has (13 for a valid one): code a developer added to the class.
    public var isbnDigits: Int { isbn?.count ?? 0 }
}
