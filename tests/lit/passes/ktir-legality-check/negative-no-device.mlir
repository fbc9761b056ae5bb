// The check needs the device it compiles for (lanes, cores, patterns); without
// one it stops and says how to give one.

// RUN: not ktc-opt %s -p ktir-legality-check 2>&1 | filecheck %s

func.func @empty() {
  return
}

// CHECK: error: no device declared: pass --arch NAME|FILE or import a device file
