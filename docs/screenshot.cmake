# Renders one page of the docs site in a headless Chromium: checks that a
# real PNG comes out (the page opens in a browser, not only in a link
# checker), and that the page is no wider than the window, so that a reader
# on a 1280-pixel screen never scrolls sideways (a figure too wide, a table
# that does not scroll inside its own box).
#
#   cmake -DCHROMIUM=<chromium> -DPAGE=<html>/index.html -DPNG=<out.png> [-DWIDTH=1280 -DHEIGHT=900]
#         -P docs/screenshot.cmake
#
# The width is measured by a copy of the page with a few lines of script
# added, which Chromium runs before it prints the page's DOM (--dump-dom): the
# page's scroll width against its width, for the window, the body and the
# content pane of Doxygen's tree view (which scrolls on its own), and the
# element that sticks out. Added as a test only where CMake found chromium
# at configure time; .ci/run installs it.
cmake_minimum_required(VERSION 3.16)

if(NOT EXISTS "${PAGE}")
  message(FATAL_ERROR "screenshot: ${PAGE} does not exist (build the site first)")
endif()
if(NOT WIDTH)
  set(WIDTH 1280)
endif()
if(NOT HEIGHT)
  set(HEIGHT 900)
endif()
get_filename_component(site "${PAGE}" DIRECTORY)
get_filename_component(name "${PAGE}" NAME_WE)
file(REMOVE "${PNG}")
get_filename_component(png_dir "${PNG}" DIRECTORY)
file(MAKE_DIRECTORY "${png_dir}")
# The browser's profile and the probe page in this test's scratch folder
# (cmake/GaussTests.cmake), so that two pages render side by side and a
# running browser of the user's is left alone.
if(DEFINED ENV{GAUSS_TEST_SCRATCH})
  set(work "$ENV{GAUSS_TEST_SCRATCH}")
else()
  set(work "${png_dir}/${name}")
endif()
file(REMOVE_RECURSE "${work}")
file(MAKE_DIRECTORY "${work}")
set(browser "${CHROMIUM}" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir=${work}/profile
            --window-size=${WIDTH},${HEIGHT})

# --- The screenshot ------------------------------------------------------------------
execute_process(COMMAND ${browser} --screenshot=${PNG} "file://${PAGE}"
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
# A blank page compresses to a few kilobytes; a page with its text and
# navigation, to far more.
if(size LESS 20000)
  message(FATAL_ERROR "screenshot: ${PNG} is only ${size} bytes: a blank or broken page?")
endif()

# --- The width ---------------------------------------------------------------------------
# The probe: after the page's own scripts have laid it out (the tree view
# sizes its panes on load), each scrolling box's overflow, and the first
# element that sticks out of it without a scrolling box of its own between.
set(probe [=[
<script>
window.addEventListener("load", function () {
  setTimeout(function () {
    var boxes = [document.documentElement, document.body, document.getElementById("doc-content")];
    var verdict = "fits";
    boxes.forEach(function (box) {
      if (!box || verdict !== "fits") return;
      var over = box.scrollWidth - box.clientWidth;
      if (over <= 1) return;
      var right = box.getBoundingClientRect().left + box.clientWidth;
      var culprit = "";
      var all = box.getElementsByTagName("*");
      for (var i = 0; i < all.length && !culprit; ++i) {
        var e = all[i];
        if (e.getBoundingClientRect().right <= right + 1) continue;
        var clipped = false;
        for (var a = e.parentElement; a && a !== box; a = a.parentElement) {
          if (getComputedStyle(a).overflowX !== "visible") { clipped = true; break; }
        }
        if (!clipped) {
          culprit = "<" + e.tagName.toLowerCase() + (e.id ? " id=" + e.id : "") +
                    (e.className && typeof e.className === "string" ? " class=" + e.className : "") +
                    (e.getAttribute("src") ? " src=" + e.getAttribute("src") : "") + "> " +
                    Math.round(e.getBoundingClientRect().width) + " px wide";
        }
      }
      verdict = (box.id ? "#" + box.id : box.tagName.toLowerCase()) + " is " + over +
                " px wider than its " + box.clientWidth + " px" + (culprit ? ": " + culprit : "");
    });
    document.documentElement.setAttribute("data-gauss-width", verdict);
  }, 300);
});
</script>
]=])
file(READ "${PAGE}" html)
string(FIND "${html}" "<head>" head_at)
string(FIND "${html}" "</body>" body_at REVERSE)
if(head_at EQUAL -1 OR body_at EQUAL -1)
  message(FATAL_ERROR "screenshot: ${PAGE} has no <head> or no </body>")
endif()
# <base>: the copy lives in the scratch folder, and its links, styles,
# scripts and images are the site's.
string(REPLACE "<head>" "<head><base href=\"file://${site}/\">" html "${html}")
string(REPLACE "</body>" "${probe}</body>" html "${html}")
file(WRITE "${work}/${name}.probe.html" "${html}")
execute_process(COMMAND ${browser} --virtual-time-budget=5000 --dump-dom "file://${work}/${name}.probe.html"
                RESULT_VARIABLE status OUTPUT_VARIABLE dom ERROR_VARIABLE err TIMEOUT 120)
if(NOT status STREQUAL "0")
  message(FATAL_ERROR "screenshot: chromium exited with ${status} measuring the page's width\n${err}")
endif()
if(NOT dom MATCHES "data-gauss-width=\"([^\"]*)\"")
  message(FATAL_ERROR "screenshot: the page's width was not measured (the probe's script did not run)\n${err}")
endif()
set(verdict "${CMAKE_MATCH_1}")
string(REPLACE "&lt;" "<" verdict "${verdict}")
string(REPLACE "&gt;" ">" verdict "${verdict}")
if(NOT verdict STREQUAL "fits")
  message(FATAL_ERROR "screenshot: ${name}.html does not fit a ${WIDTH}-pixel window: ${verdict} "
                      "(the screenshot: ${PNG})")
endif()
message(STATUS "screenshot: ${PNG}, ${size} bytes; ${name}.html fits a ${WIDTH} x ${HEIGHT} window")
