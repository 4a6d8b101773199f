import Foundation
import ObjectGraph

/// A `Video` object.
///
/// objectgraph-gen wrote this file once and never rewrites it: add your own code here.
/// The model's properties are in `_Video.swift`, which it rewrites on every run.
final class Video: _Video {}
