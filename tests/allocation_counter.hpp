#pragma once
// Test helper: the number of global operator new calls so far in this process (the test links
// allocation_counter.cpp, which replaces operator new / delete to count).
namespace polydg::testing {
long allocation_count();
}
