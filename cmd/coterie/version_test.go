package main

import (
	"runtime/debug"
	"testing"
)

func TestBuildVersion(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}}
	dirty := append(rev, debug.BuildSetting{Key: "vcs.modified", Value: "true"})
	for _, tt := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"no build info", nil, "dev"},
		{"go install @version", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: rev}, "v1.2.3"},
		{"checkout", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: rev}, "devel-0123456789ab"},
		{"dirty checkout", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: dirty}, "devel-0123456789ab-dirty"},
		{"no vcs", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := buildVersion(tt.bi); got != tt.want {
				t.Errorf("buildVersion = %q, want %q", got, tt.want)
			}
		})
	}
}
