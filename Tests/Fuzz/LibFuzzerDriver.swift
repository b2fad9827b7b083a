#if FUZZING
  import Foundation

  /// libFuzzer's entry for a program that has its own `main` (LLVM 12 and later).
  @_silgen_name("LLVMFuzzerRunDriver")
  private func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
  ) -> Int32

  /// The target libFuzzer's callback feeds; set once, before the driver starts. A C callback
  /// cannot capture it, so it lives here.
  nonisolated(unsafe) private var fuzzedTarget: FuzzTarget?

  /// Runs libFuzzer on `target` with `options` (the first is the program's name).
  func runLibFuzzer(_ target: FuzzTarget, options: [String]) -> Int32 {
    fuzzedTarget = target
    var argc = Int32(options.count)
    var pointers: [UnsafeMutablePointer<CChar>?] = options.map { strdup($0) } + [nil]
    return pointers.withUnsafeMutableBufferPointer { buffer in
      var argv = buffer.baseAddress
      return llvmFuzzerRunDriver(&argc, &argv) { data, size in
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        fuzzedTarget?.run(bytes)
        return 0
      }
    }
  }
#endif
