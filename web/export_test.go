package web

// SetAcquireHook sets the function called as a request takes a worker
// (nil: none).
func SetAcquireHook(f func()) { testHookAcquired = f }
