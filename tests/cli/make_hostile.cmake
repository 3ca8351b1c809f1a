# Writes the generated hostile inputs into the build tree (too big to keep in the repository):
# 100,000 nested brackets and a 50 MB file.
cmake_minimum_required(VERSION 3.25)
string(REPEAT "[" 100000 open)
file(WRITE "${OUT}/deep_nesting.json" "${open}")
string(REPEAT "0123456789abcdef" 65536 mib)  # 1 MiB
file(WRITE "${OUT}/huge.json" "[\"")
foreach(i RANGE 1 50)
  file(APPEND "${OUT}/huge.json" "${mib}")
endforeach()
file(APPEND "${OUT}/huge.json" "\"]")
