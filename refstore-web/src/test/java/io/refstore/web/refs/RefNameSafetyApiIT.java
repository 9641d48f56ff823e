package io.refstore.web.refs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;

import io.refstore.core.io.LockOwner;
import io.refstore.core.ref.RefName;
import io.refstore.core.repo.StoreGate;
import io.refstore.core.testing.TempRepo;
import io.refstore.web.ApiTestSupport;

/**
 * Names that are paths of the git directory rather than refs, sent through every way the
 * API writes (PUT, DELETE, a batch, a deletion plan): each is a 400 naming the parameter,
 * the name and the rule, without a stack frame, class or server path, and the repository
 * stays byte for byte as it was, sound for {@code git fsck}. A loose ref file that holds
 * no ref is never overwritten: 409, as git refuses it.
 */
class RefNameSafetyApiIT extends ApiTestSupport {

	String name;

	TempRepo repo;

	String commit;

	/**
	 * The path of a loose object below the git directory ({@code objects/xx/<38 hex>}).
	 */
	String object;

	@BeforeEach
	void repository() {
		this.name = uniqueName("ref-names");
		this.repo = bareRepo(this.name);
		String parent = null;
		for (int i = 1; i <= 11; i++) {
			parent = this.repo.commit("c" + i, parent);
			this.repo.git("update-ref", "--create-reflog", "-m", "c" + i, "refs/heads/main", parent);
		}
		this.commit = parent;
		String blob = this.repo.run("blob\n".getBytes(StandardCharsets.UTF_8), "hash-object", "-w", "--stdin")
			.requireOk()
			.stdout()
			.trim();
		this.object = "objects/" + blob.substring(0, 2) + "/" + blob.substring(2);
		// an index file, as a non-bare repository has
		this.repo.git("--work-tree=.", "read-tree", "--index-output=" + this.repo.gitDir().resolve("index"), "HEAD");
	}

	/** The names and the rule that refuses each. */
	private Map<String, RefName.Rule> badNames() {
		Map<String, RefName.Rule> names = new LinkedHashMap<>();
		names.put(this.object, RefName.Rule.OUTSIDE_REFS);
		for (String path : new String[] { "foo/bar", "-refs/heads/x", "objects/info/alternates", "logs/refs/heads/main",
				"HEAD/x" }) {
			names.put(path, RefName.Rule.OUTSIDE_REFS);
		}
		for (String file : new String[] { "config", "packed-refs", "index", "description", "HEAD-x", "Foo_HEAD" }) {
			names.put(file, RefName.Rule.ONE_LEVEL);
		}
		names.put("FETCH_HEAD", RefName.Rule.PSEUDOREF);
		names.put("refs/heads/a..b", RefName.Rule.DOUBLE_DOT);
		names.put("refs/heads/x.lock", RefName.Rule.COMPONENT_ENDS_WITH_LOCK);
		names.put("refs/../config", RefName.Rule.DOUBLE_DOT);
		names.put("refs/heads/a\tb", RefName.Rule.CONTROL_CHARACTER);
		return names;
	}

	@Test
	void pathLikeNamesAreRefusedEverywhereAndTheRepositoryIsUntouched() throws Exception {
		Map<String, String> before = snapshot();
		for (Map.Entry<String, RefName.Rule> bad : badNames().entrySet()) {
			String ref = bad.getKey();
			String rule = bad.getValue().name();
			ResultActions set = this.mvc.perform(put(refUri(this.name, ref, "")).with(as("admin"))
				.header("If-None-Match", "*")
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"sha\": \"" + this.commit + "\"}"));
			ResultActions delete = this.mvc.perform(
					delete(refUri(this.name, ref, "")).with(as("admin")).header("If-Match", "\"" + this.commit + "\""));
			for (ResultActions result : List.of(set, delete)) {
				if (ref.contains("/../")) {
					// a dot segment in a path is refused before any controller: the URL
					// is not normalized
					result.andExpect(status().isBadRequest())
						.andExpect(jsonPath("$.type").value(containsString("rejected-request")));
					clean(result);
				}
				else {
					refused(result, "ref", ref, rule);
				}
			}
			String batch = "{\"updates\": [{\"ref\": \"refs/heads/fine\", \"new\": \"%s\"}, {\"ref\": \"%s\", \"new\": \"%s\"}]}"
				.formatted(this.commit, json(ref), this.commit);
			refused(this.mvc.perform(post(repoUri(this.name, "/refs:batch")).with(as("admin"))
				.contentType(MediaType.APPLICATION_JSON)
				.content(batch)), "updates[1].ref", ref, rule);
			String deletion = "{\"updates\": [{\"ref\": \"%s\", \"old\": \"%s\", \"new\": \"%s\"}]}"
				.formatted(json(ref), this.commit, "0".repeat(40));
			refused(this.mvc.perform(post(repoUri(this.name, "/refs:batch")).with(as("admin"))
				.contentType(MediaType.APPLICATION_JSON)
				.content(deletion)), "updates[0].ref", ref, rule);
			assertThat(snapshot()).as("the git directory after writes of '%s'", RefName.printable(ref))
				.isEqualTo(before);
		}
		var fsck = this.repo.run(new byte[0], "fsck", "--no-dangling", "--strict");
		assertThat(fsck.exitCode()).as("git fsck: " + fsck.stderr() + fsck.stdout()).isZero();
		assertThat(fsck.stdout() + fsck.stderr()).as("git fsck").isEmpty();
		assertThat(this.repo.git("reflog", "show", "refs/heads/main").lines()).hasSize(11);
	}

	@Test
	void aDeletionPlanNamingAPathIsRefused() throws Exception {
		Map<String, String> before = snapshot();
		for (String path : new String[] { this.object, "logs/refs/heads/main", "objects/info/alternates" }) {
			this.mvc
				.perform(post("/api/jobs/deletion-plans").with(as("admin"))
					.contentType(MediaType.APPLICATION_JSON)
					.content("{\"repository\": \"%s\", \"names\": [\"%s\"]}".formatted(this.name, path)))
				.andExpect(status().isBadRequest())
				.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
				.andExpect(jsonPath("$.detail").value(containsString(path)))
				.andExpect(jsonPath("$.detail").value(containsString(RefName.Rule.OUTSIDE_REFS.description())))
				.andExpect(jsonPath("$.parameter").value("names"))
				.andExpect(jsonPath("$.ref").value(path))
				.andExpect(jsonPath("$.rule").value("OUTSIDE_REFS"))
				.andExpect(content().string(not(containsString(ROOT.toString()))));
		}
		assertThat(snapshot()).isEqualTo(before);
	}

	@Test
	void aLooseRefHoldingNoRefIsAConflictAndStaysAsItWas() throws Exception {
		Path zlib = this.repo.gitDir().resolve("refs/heads/zlib");
		Files.createDirectories(zlib.getParent());
		Files.copy(this.repo.gitDir().resolve(this.object), zlib);
		Files.writeString(this.repo.gitDir().resolve("refs/heads/hello"), "hello\n");
		Map<String, String> before = snapshot();
		for (String ref : new String[] { "refs/heads/zlib", "refs/heads/hello" }) {
			String detail = "cannot lock ref '" + ref + "': unable to resolve reference '" + ref
					+ "': reference broken";
			broken(this.mvc.perform(put(refUri(this.name, ref, "")).with(as("admin"))
				.header("If-None-Match", "*")
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"sha\": \"" + this.commit + "\"}")), detail);
			broken(this.mvc.perform(
					delete(refUri(this.name, ref, "")).with(as("admin")).header("If-Match", "\"" + this.commit + "\"")),
					detail);
			broken(this.mvc.perform(post(repoUri(this.name, "/refs:batch")).with(as("admin"))
				.contentType(MediaType.APPLICATION_JSON)
				.content(
						"{\"updates\": [{\"ref\": \"refs/heads/fine\", \"new\": \"%s\"}, {\"ref\": \"%s\", \"new\": \"%s\"}]}"
							.formatted(this.commit, ref, this.commit))),
					detail);
			assertThat(snapshot()).as("the git directory after writes of " + ref).isEqualTo(before);
		}
		// git itself refuses them the same way
		assertThat(this.repo.run(new byte[0], "update-ref", "refs/heads/zlib", this.commit).stderr())
			.contains("reference broken");
		assertThat(snapshot()).isEqualTo(before);
	}

	private void refused(ResultActions result, String parameter, String ref, String rule) throws Exception {
		result.andExpect(status().isBadRequest())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.type").value(containsString("invalid-ref-name")))
			.andExpect(jsonPath("$.parameter").value(parameter))
			.andExpect(jsonPath("$.ref").value(RefName.printable(ref)))
			.andExpect(jsonPath("$.rule").value(rule))
			.andExpect(jsonPath("$.detail").value(containsString(RefName.printable(ref))))
			.andExpect(jsonPath("$.detail").value(containsString(RefName.Rule.valueOf(rule).description())));
		clean(result);
	}

	private void broken(ResultActions result, String detail) throws Exception {
		result.andExpect(status().isConflict())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.type").value(containsString("broken-ref")))
			.andExpect(jsonPath("$.detail").value(detail));
		clean(result);
	}

	/** No stack frame, class name or server path in a problem. */
	private static void clean(ResultActions result) throws Exception {
		result.andExpect(content().string(not(containsString("Exception"))))
			.andExpect(content().string(not(containsString("io.refstore"))))
			.andExpect(content().string(not(containsString("\tat "))))
			.andExpect(content().string(not(containsString(ROOT.toString()))));
	}

	/**
	 * Every file of the git directory, by path, with a digest of its bytes; but for the
	 * application's lock owner record ({@value LockOwner#DIR}), written at its first lock
	 * in the repository and kept while it runs, and the gate's file
	 * ({@value StoreGate#FILE}), made by the first writer or reader to pass the gate and
	 * holding no data.
	 */
	private Map<String, String> snapshot() throws IOException {
		Path gitDir = this.repo.gitDir();
		Map<String, String> files = new TreeMap<>();
		try (Stream<Path> paths = Files.walk(gitDir)) {
			for (Path path : (Iterable<Path>) paths::iterator) {
				String key = gitDir.relativize(path).toString();
				if (key.equals(LockOwner.DIR) || key.startsWith(LockOwner.DIR + "/") || key.equals(StoreGate.FILE)) {
					continue;
				}
				files.put(key, Files.isDirectory(path) ? "<dir>" : digest(Files.readAllBytes(path)));
			}
		}
		return files;
	}

	private static String digest(byte[] content) {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
		}
		catch (java.security.NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String json(String text) {
		return text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\t", "\\t");
	}

}
