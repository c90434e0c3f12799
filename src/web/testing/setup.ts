// Testing Library tells React "this is a test, updates come through act()" only under a runner with
// global hooks (it sets IS_REACT_ACT_ENVIRONMENT in a global beforeAll). Our Vitest runs without
// globals, so React saw no act environment at all and printed "The current testing environment is
// not configured to support act(...)" for every update inside act(), hiding the warnings that matter:
// an update a test did not wait for. Declaring the environment here makes those visible.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
