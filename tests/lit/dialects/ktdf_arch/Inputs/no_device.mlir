// A file without a device: not something --arch can import.

func.func @not_a_device() {
  func.return
}
