import Foundation
import ObjectGraph

/// A `Album` object.
///
/// objectgraph-gen wrote this file once and never rewrites it: add your own code here.
/// The model's properties are in `_Album.swift`, which it rewrites on every run.
final class Album: _Album {}
