# One arithmetic on both backends (kernels/portable_math.hpp): fails when a
# kernel source in DIR calls a transcendental function of the C or CUDA
# library (expf, sinf, std::exp, __expf, ...), whose bits differ between
# the CPU's library and a GPU's. Comments are not read; EXCEPT names the
# one file that implements the portable ones.
# Run by CTest: cmake -D DIR=<kernels dir> -D EXCEPT=<file name> -P this file.
file(GLOB files "${DIR}/*.hpp" "${DIR}/*.cuh" "${DIR}/*.cu")
set(names "exp|exp2|expm1|log|log2|log10|log1p|pow|sin|cos|tan|sincos|sinpi|cospi|asin|acos|atan|atan2|sinh|cosh|tanh|erf|erfc|cbrt|tgamma|lgamma")
# a float function (expf), a CUDA intrinsic (__expf), std:: or a bare call (exp), not a member or another name's tail
set(call "(^|[^A-Za-z0-9_.>])(std::|__)?(${names})f?[ \t]*\\(")
set(bad "")
set(n 0)
foreach(f ${files})
  get_filename_component(name "${f}" NAME)
  if(name STREQUAL EXCEPT)
    continue()
  endif()
  math(EXPR n "${n} + 1")
  file(STRINGS "${f}" lines)
  set(k 0)
  foreach(l IN LISTS lines)
    math(EXPR k "${k} + 1")
    # the code before a // comment (block comments are not used in kernels/)
    string(REGEX REPLACE "//.*$" "" code "${l}")
    if(code MATCHES "${call}")
      string(APPEND bad "\n  ${f}:${k}: ${l}")
    endif()
  endforeach()
endforeach()
if(bad)
  message(FATAL_ERROR "library transcendentals in kernels (use kernels/portable_math.hpp, the same bits on every backend):${bad}")
endif()
message(STATUS "${n} kernel files call no library transcendental")
