package io.refstore.core.demo;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.ReflogEntry;

/**
 * The refs of a demo repository, in name order (all names are ASCII, so string order is
 * git's bytewise order), and their reflogs. Stateless.
 */
final class DemoRefs {

	/**
	 * A ref's value: an id (with the peeled id of an annotated tag) or a symbolic target.
	 *
	 * @param id the object id, or {@code null} for a symbolic ref
	 * @param peeled the peeled id of an annotated tag, else {@code null}
	 * @param symref the target of a symbolic ref, else {@code null}
	 */
	record Value(ObjectId id, ObjectId peeled, String symref) {
	}

	private DemoRefs() {
	}

	/**
	 * Every ref of a demo repository and the history its branches point into.
	 *
	 * @param refs every ref, {@code HEAD} included, in name order
	 * @param history the commits, oldest first
	 */
	record Layout(TreeMap<String, Value> refs, List<ObjectId> history) {
	}

	/** Writes the commits and tags and returns every ref, {@code HEAD} included. */
	static Layout layout(DemoObjects objects, DemoRepositories.Options options) throws IOException {
		List<ObjectId> history = objects.history(options.commits());
		int last = history.size() - 1;
		TreeMap<String, Value> refs = new TreeMap<>();
		refs.put("HEAD", new Value(null, null, "refs/heads/main"));
		refs.put("refs/heads/main", direct(history.get(last)));
		for (int i = 0; i < options.features(); i++) {
			refs.put("refs/heads/feature/topic-" + String.format("%04d", i),
					direct(history.get((i * 7) % history.size())));
		}
		int releases = Math.max(1, history.size() / 20);
		for (int i = 0; i < releases; i++) {
			ObjectId commit = history.get(i * 20);
			String version = "v1." + i + ".0";
			ObjectId tag = objects.tag(version, commit, DemoObjects.EPOCH + i * 20 * 3600L + 60);
			refs.put("refs/tags/" + version, new Value(tag, commit, null));
			refs.put("refs/tags/build-" + String.format("%05d", i * 20), direct(commit));
			if (i % 5 == 0) {
				refs.put("refs/heads/release/1." + i, direct(commit));
			}
		}
		for (int n = 1; n <= options.pulls(); n++) {
			refs.put("refs/pull/" + n + "/head", direct(history.get((n * 13) % history.size())));
		}
		for (int c = 0; c < options.changes(); c++) {
			int change = 1000 + c;
			int patchsets = 1 + (c % 3);
			for (int p = 1; p <= patchsets; p++) {
				String name = "refs/changes/" + String.format("%02d", change % 100) + "/" + change + "/" + p;
				refs.put(name, direct(history.get((change * 3 + p) % history.size())));
			}
		}
		return new Layout(refs, history);
	}

	private static Value direct(ObjectId id) {
		return new Value(id, null, null);
	}

	/**
	 * Reflogs, as git would have written them: {@code main} and {@code HEAD} with their
	 * last moves along the history, every other branch created once.
	 */
	static TreeMap<String, List<ReflogEntry>> reflogs(Layout layout) {
		TreeMap<String, Value> refs = layout.refs();
		List<ObjectId> history = layout.history();
		TreeMap<String, List<ReflogEntry>> logs = new TreeMap<>();
		ObjectId zero = HashAlgorithm.SHA1.zeroId();
		long end = DemoObjects.EPOCH + (history.size() - 1) * 3600L;
		// main was pushed a few commits at a time: the log holds its last moves, oldest
		// first
		int first = Math.max(0, history.size() - 50);
		List<ReflogEntry> mainLog = new ArrayList<>();
		mainLog
			.add(DemoRepositories.entry(zero, history.get(first), DemoObjects.EPOCH + first * 3600L, "push: created"));
		int last = history.size() - 1;
		for (int previous = first, to = first + 5; previous < last; to += 5) {
			int target = Math.min(to, last);
			mainLog.add(DemoRepositories.entry(history.get(previous), history.get(target),
					DemoObjects.EPOCH + target * 3600L + 30, "push: fast-forward"));
			previous = target;
		}
		logs.put("HEAD", mainLog);
		logs.put("refs/heads/main", mainLog);
		for (Map.Entry<String, Value> ref : refs.entrySet()) {
			if (ref.getKey().startsWith("refs/heads/") && !ref.getKey().equals("refs/heads/main")) {
				logs.put(ref.getKey(), List
					.of(DemoRepositories.entry(zero, ref.getValue().id(), end + 60, "branch: Created from main")));
			}
		}
		return logs;
	}

}
