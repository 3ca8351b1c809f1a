// The unit that builds the core tests' precompiled headers (tests/core/CMakeLists.txt); it has no code.
