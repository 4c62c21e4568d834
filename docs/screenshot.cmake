# Renders the docs site's main page in a headless Chromium and checks that a
# real PNG came out: the site opens in a browser, not only in a link checker.
#   cmake -DCHROMIUM=<chromium> -DPAGE=<html>/index.html -DPNG=<out.png> -P docs/screenshot.cmake
# Added as a test only where CMake found chromium at configure time; CI does
# not install it (too heavy).
cmake_minimum_required(VERSION 3.16)

if(NOT EXISTS "${PAGE}")
  message(FATAL_ERROR "screenshot: ${PAGE} does not exist (build the site first)")
endif()
file(REMOVE "${PNG}")
get_filename_component(png_dir "${PNG}" DIRECTORY)
file(MAKE_DIRECTORY "${png_dir}")
# A profile of its own, so that a running browser of the user's is left alone.
set(profile "${png_dir}/chromium-profile")
execute_process(
  COMMAND "${CHROMIUM}" --headless --no-sandbox --disable-gpu --hide-scrollbars
          --user-data-dir=${profile} --window-size=1280,900 --screenshot=${PNG} "file://${PAGE}"
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT status STREQUAL "0")
  message(FATAL_ERROR "screenshot: chromium exited with ${status}\n${out}\n${err}")
endif()
if(NOT EXISTS "${PNG}")
  message(FATAL_ERROR "screenshot: chromium wrote no ${PNG}\n${out}\n${err}")
endif()
file(SIZE "${PNG}" size)
file(READ "${PNG}" signature LIMIT 8 HEX)
if(NOT signature STREQUAL "89504e470d0a1a0a")
  message(FATAL_ERROR "screenshot: ${PNG} is not a PNG (starts with ${signature})")
endif()
# A blank 1280 x 900 page compresses to a few kilobytes; the main page, with
# its text and navigation, to far more.
if(size LESS 20000)
  message(FATAL_ERROR "screenshot: ${PNG} is only ${size} bytes: a blank or broken page?")
endif()
message(STATUS "screenshot: ${PNG}, ${size} bytes")
