import Foundation
import ObjectGraph

/// A `MediaItem` object.
///
/// objectgraph-gen wrote this file once and never rewrites it: add your own code here.
/// The model's properties are in `_MediaItem.swift`, which it rewrites on every run.
class MediaItem: _MediaItem {}
