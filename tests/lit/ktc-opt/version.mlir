// --version names the tool and its version, and the xDSL version it runs on, and
// exits 0 without reading any input.

// RUN: ktc-opt --version | filecheck %s

// CHECK:     {{^}}ktc-opt {{[0-9]+\.[0-9]+\.[0-9]+}} (xdsl {{[0-9]+\.[0-9]+\.[0-9]+}})
// CHECK-NOT: {{.}}
