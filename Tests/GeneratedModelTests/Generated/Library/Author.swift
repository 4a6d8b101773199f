import Foundation
import ObjectGraph

/// A `Author` object.
///
/// objectgraph-gen wrote this file once and never rewrites it: add your own code here.
/// The model's properties are in `_Author.swift`, which it rewrites on every run.
public final class Author: _Author {}
