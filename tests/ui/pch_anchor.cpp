// The unit that builds the window tests' precompiled headers (tests/ui/CMakeLists.txt); it has no code.
