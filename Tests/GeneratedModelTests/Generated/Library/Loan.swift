import Foundation
import ObjectGraph

/// A `Loan` object.
///
/// objectgraph-gen wrote this file once and never rewrites it: add your own code here.
/// The model's properties are in `_Loan.swift`, which it rewrites on every run.
public final class Loan: _Loan {}
