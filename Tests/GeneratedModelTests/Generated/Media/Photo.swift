import Foundation
import ObjectGraph

/// A `Photo` object.
///
/// objectgraph-gen wrote this file once and never rewrites it: add your own code here.
/// The model's properties are in `_Photo.swift`, which it rewrites on every run.
class Photo: _Photo {}
