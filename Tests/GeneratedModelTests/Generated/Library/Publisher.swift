import Foundation
import ObjectGraph

/// A `Publisher` object.
///
/// objectgraph-gen wrote this file once and never rewrites it: add your own code here.
/// The model's properties are in `_Publisher.swift`, which it rewrites on every run.
public final class Publisher: _Publisher {}
