import Foundation
import ObjectGraph

/// A `Tag` object.
///
/// objectgraph-gen wrote this file once and never rewrites it: add your own code here.
/// The model's properties are in `_Tag.swift`, which it rewrites on every run.
public final class Tag: _Tag {}
