# The layers point one way (DESIGN.md §3, §7): fails when a header or source
# in DIR has a quoted #include that does not match ALLOW, or matches FORBID.
#   public API:  include/ccrowd includes only ccrowd/<name>.hpp
#   kernels:     kernels/ includes nothing from src/ and no relative path up
# Run by CTest: cmake -D DIR=<dir> [-D ALLOW=<regex>] [-D FORBID=<regex>] -P this file.
file(GLOB files "${DIR}/*.hpp" "${DIR}/*.cuh" "${DIR}/*.cu" "${DIR}/*.cpp")
set(bad "")
foreach(f ${files})
  file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(l ${lines})
    if((ALLOW AND NOT l MATCHES "${ALLOW}") OR (FORBID AND l MATCHES "${FORBID}"))
      string(APPEND bad "\n  ${f}: ${l}")
    endif()
  endforeach()
endforeach()
if(bad)
  message(FATAL_ERROR "includes that cross a layer:${bad}")
endif()
list(LENGTH files n)
message(STATUS "${n} files in ${DIR} keep to their layer")
