import Foundation
import ObjectGraph

/// A `LivePhoto` object.
///
/// objectgraph-gen wrote this file once and never rewrites it: add your own code here.
/// The model's properties are in `_LivePhoto.swift`, which it rewrites on every run.
final class LivePhoto: _LivePhoto {}
