// Kept for the tests that include it (02, 03, 04, 09): run_captured, the one
// helper it held, is now in support.hpp with the other shared test helpers.
// Include support.hpp instead; this file can go once no test names it.
#pragma once

#include "support.hpp"
