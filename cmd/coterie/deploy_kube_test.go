package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// kubeDiscovery is an API server that knows the resources the manifests
// in deploy/kubernetes use and holds no objects: enough for kubectl
// apply --dry-run=client, which maps each document's apiVersion and kind
// to a resource and asks whether the object exists.
func kubeDiscovery(t *testing.T) (url string, seen func() []string) {
	resources := map[string][]map[string]any{
		"/api/v1": {
			{"name": "pods", "singularName": "pod", "namespaced": true, "kind": "Pod", "verbs": []string{"create", "get", "list", "delete", "patch"}},
			{"name": "persistentvolumeclaims", "singularName": "persistentvolumeclaim", "namespaced": true, "kind": "PersistentVolumeClaim", "verbs": []string{"create", "get", "list", "delete", "patch"}},
		},
		"/apis/batch/v1": {
			{"name": "jobs", "singularName": "job", "namespaced": true, "kind": "Job", "verbs": []string{"create", "get", "list", "delete", "patch"}},
		},
	}
	var mu sync.Mutex
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		var body any
		switch p := r.URL.Path; {
		case p == "/api":
			body = map[string]any{"kind": "APIVersions", "versions": []string{"v1"},
				"serverAddressByClientCIDRs": []map[string]string{{"clientCIDR": "0.0.0.0/0", "serverAddress": r.Host}}}
		case p == "/apis":
			gv := map[string]string{"groupVersion": "batch/v1", "version": "v1"}
			body = map[string]any{"kind": "APIGroupList", "apiVersion": "v1",
				"groups": []map[string]any{{"name": "batch", "versions": []any{gv}, "preferredVersion": gv}}}
		case resources[p] != nil:
			gv := strings.TrimPrefix(strings.TrimPrefix(p, "/apis/"), "/api/")
			body = map[string]any{"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": resources[p]}
		case strings.Contains(p, "/namespaces/") && r.Method == http.MethodGet:
			mu.Lock()
			asked = append(asked, p)
			mu.Unlock()
			w.WriteHeader(http.StatusNotFound)
			body = map[string]any{"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "NotFound", "code": 404,
				"message": "not found"}
		default:
			w.WriteHeader(http.StatusNotFound)
			body = map[string]any{"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "NotFound", "code": 404}
		}
		json.NewEncoder(w).Encode(body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(asked)
	}
}

// The manifests in deploy/kubernetes are Kubernetes objects kubectl
// accepts (apply --dry-run=client against an API server that knows their
// kinds), and they are the objects deploy/README.md names.
func TestDeployKubernetesManifests(t *testing.T) {
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not installed (Debian: kubernetes-client)")
	}
	url, asked := kubeDiscovery(t)
	home := t.TempDir()
	config := filepath.Join(home, "config")
	cfg := `apiVersion: v1
kind: Config
clusters: [{name: test, cluster: {server: "` + url + `"}}]
users: [{name: test, user: {token: test}}]
contexts: [{name: test, context: {cluster: test, user: test, namespace: default}}]
current-context: test
`
	if err := os.WriteFile(config, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "..", "deploy", "kubernetes")
	kube := func(args ...string) ([]byte, error) {
		cmd := exec.Command(kubectl, append([]string{"apply", "--dry-run=client", "--validate=false",
			"--cache-dir", filepath.Join(home, "cache")}, args...)...)
		cmd.Env = append(os.Environ(), "KUBECONFIG="+config, "HOME="+home)
		return cmd.CombinedOutput()
	}
	for _, c := range []struct {
		file string
		want []string
	}{
		{"volume.yaml", []string{"persistentvolumeclaim/coterie-data created (dry run)", "pod/coterie-files created (dry run)"}},
		{"job.yaml", []string{"job.batch/coterie-availability created (dry run)", "job.batch/coterie-merge created (dry run)"}},
	} {
		out, err := kube("-f", filepath.Join(dir, c.file))
		if err != nil {
			t.Fatalf("kubectl apply --dry-run=client -f %s: %v\n%s", c.file, err, out)
		}
		got := strings.Split(strings.TrimSpace(string(out)), "\n")
		if !slices.Equal(got, c.want) {
			t.Errorf("kubectl apply --dry-run=client -f %s:\n%s\nwant\n%s", c.file, out, strings.Join(c.want, "\n"))
		}
	}
	if n := len(asked()); n != 4 {
		t.Errorf("kubectl looked up %d objects, want 4: %v", n, asked())
	}

	// The objects as kubectl read them.
	out, err := kube("-o", "json", "-f", dir)
	if err != nil {
		t.Fatalf("kubectl apply --dry-run=client -o json -f %s: %v\n%s", dir, err, out)
	}
	var list struct {
		Items []kubeObject `json:"items"`
	}
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatal(err)
	}
	checkManifests(t, list.Items)
}

type kubeContainer struct {
	Name    string   `json:"name"`
	Image   string   `json:"image"`
	Command []string `json:"command"`
	Args    []string `json:"args"`
	Env     []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"env"`
	VolumeMounts []struct {
		Name string `json:"name"`
	} `json:"volumeMounts"`
}

func (c kubeContainer) env(name string) string {
	for _, e := range c.Env {
		if e.Name == name {
			return e.Value
		}
	}
	return ""
}

type kubePodSpec struct {
	SecurityContext struct {
		RunAsNonRoot *bool `json:"runAsNonRoot"`
		RunAsUser    int   `json:"runAsUser"`
	} `json:"securityContext"`
	InitContainers []kubeContainer `json:"initContainers"`
	Containers     []kubeContainer `json:"containers"`
	Volumes        []struct {
		Name string `json:"name"`
		PVC  *struct {
			ClaimName string `json:"claimName"`
		} `json:"persistentVolumeClaim"`
	} `json:"volumes"`
}

type kubeObject struct {
	Kind     string `json:"kind"`
	Metadata struct {
		Name string `json:"name"`
	} `json:"metadata"`
	Spec struct {
		kubePodSpec
		CompletionMode string `json:"completionMode"`
		Completions    int    `json:"completions"`
		Parallelism    int    `json:"parallelism"`
		Template       struct {
			Spec kubePodSpec `json:"spec"`
		} `json:"template"`
	} `json:"spec"`
}

// checkManifests checks that the objects fit together: every pod runs
// the image as its non-root user (the Dockerfile's USER) and mounts the
// claim, the Job's N is the same in completions and SHARDS, the shard and
// the merge agree on OUT; and it runs their command lines, as the pods
// would, on a small input: the merge's result is the unsplit report.
func checkManifests(t *testing.T, objs []kubeObject) {
	dockerfile, err := os.ReadFile(filepath.Join("..", "..", "deploy", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	var user string
	for _, line := range strings.Split(string(dockerfile), "\n") {
		if u, ok := strings.CutPrefix(line, "USER "); ok {
			user, _, _ = strings.Cut(u, ":")
		}
	}
	var claim, image string
	pods := map[string]kubePodSpec{}
	var indexed kubeObject
	for _, o := range objs {
		switch o.Kind {
		case "PersistentVolumeClaim":
			claim = o.Metadata.Name
		case "Pod":
			pods[o.Metadata.Name] = o.Spec.kubePodSpec
		case "Job":
			pods[o.Metadata.Name] = o.Spec.Template.Spec
			if o.Spec.CompletionMode == "Indexed" {
				indexed = o
			}
		}
	}
	if claim == "" || indexed.Kind == "" || len(pods) != 3 {
		t.Fatalf("want a claim, a pod, an Indexed Job and a merge Job; have claim %q, pods %d", claim, len(pods))
	}
	containers := map[string]kubeContainer{}
	for name, p := range pods {
		if p.SecurityContext.RunAsNonRoot == nil || !*p.SecurityContext.RunAsNonRoot || strconv.Itoa(p.SecurityContext.RunAsUser) != user {
			t.Errorf("%s: runs as %d (runAsNonRoot %v), want the image's user %s", name, p.SecurityContext.RunAsUser, p.SecurityContext.RunAsNonRoot, user)
		}
		vols := map[string]bool{}
		for _, v := range p.Volumes {
			vols[v.Name] = true
			if v.PVC != nil && v.PVC.ClaimName != claim {
				t.Errorf("%s: claim %q, want %q", name, v.PVC.ClaimName, claim)
			}
		}
		for _, c := range append(slices.Clone(p.InitContainers), p.Containers...) {
			if image == "" {
				image = c.Image
			}
			if c.Image != image {
				t.Errorf("%s/%s: image %q, want %q as the others", name, c.Name, c.Image, image)
			}
			for _, m := range c.VolumeMounts {
				if !vols[m.Name] {
					t.Errorf("%s/%s mounts %q, which the pod does not have", name, c.Name, m.Name)
				}
			}
			containers[name+"/"+c.Name] = c
		}
	}
	shardC := containers["coterie-availability/shard"]
	waitC := containers["coterie-merge/wait-for-parts"]
	mergeC := containers["coterie-merge/merge"]
	n := indexed.Spec.Completions
	if shardC.env("SHARDS") != strconv.Itoa(n) || waitC.env("SHARDS") != strconv.Itoa(n) || indexed.Spec.Parallelism > n {
		t.Errorf("completions %d, parallelism %d, SHARDS %q and %q: want the same N", n, indexed.Spec.Parallelism, shardC.env("SHARDS"), waitC.env("SHARDS"))
	}
	if out := shardC.env("OUT"); out == "" || waitC.env("OUT") != out || mergeC.env("OUT") != out {
		t.Errorf("OUT %q, %q, %q: want one folder", out, waitC.env("OUT"), mergeC.env("OUT"))
	}

	// The command lines, run as the pods run them, with N = 3 and the
	// volume a temporary folder.
	d := newDeployEnv(t)
	data := t.TempDir()
	input := avGenerate(t, data, "system.json", "billiard", "--q", "7")
	out := filepath.Join(data, "system-availability")
	run := func(c kubeContainer, extra ...string) error {
		if len(c.Command) == 0 || c.Command[0] != "/bin/sh" {
			t.Fatalf("%s: command %q, want /bin/sh -c", c.Name, c.Command)
		}
		cmd := exec.Command(d.sh, append(c.Command[1:], c.Args...)...)
		cmd.Env = append(os.Environ(), append([]string{"PATH=" + d.path, "SHARDS=3", "INPUT=" + input, "OUT=" + out}, extra...)...)
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Logf("%s: %s", c.Name, b)
		}
		return err
	}
	for i := 0; i < 3; i++ {
		if err := run(shardC, "JOB_COMPLETION_INDEX="+strconv.Itoa(i)); err != nil {
			t.Fatalf("shard pod %d: %v", i, err)
		}
	}
	if err := run(waitC); err != nil {
		t.Fatalf("the merge's wait: %v", err)
	}
	if err := run(mergeC); err != nil {
		t.Fatalf("the merge: %v", err)
	}
	_, want, _ := runAvailabilityCmd(t, "availability", input, "--json")
	if got, _ := os.ReadFile(filepath.Join(out, "result.json")); string(got) != want {
		t.Errorf("result.json\n%s\nwant the unsplit report\n%s", got, want)
	}
}
