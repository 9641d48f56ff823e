package io.refstore.core.cli;

import static io.refstore.core.cli.CliHarness.assertFails;
import static io.refstore.core.cli.CliHarness.assertSame;
import static io.refstore.core.cli.CliHarness.assertSameOutput;
import static io.refstore.core.cli.CliHarness.refstore;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * {@code refstore for-each-ref} with object, date, message, upstream and control atoms,
 * quoting and sorting, against git 2.55 on the same repositories (sha1 and sha256):
 * commits and tags with people in several zones, a tag of a tag, a signed-looking tag,
 * trailers, a mailmap, branch configuration.
 */
class ForEachRefAtomsIT {

	@TempDir
	static Path temp;

	private static TempRepo sha1;

	private static TempRepo sha256;

	@BeforeAll
	static void makeRepositories() throws Exception {
		sha1 = make(temp.resolve("sha1"), "sha1");
		sha256 = make(temp.resolve("sha256"), "sha256");
	}

	private static TempRepo make(Path dir, String format) throws Exception {
		GitCli git = GitCli.reftable();
		TempRepo repo = TempRepo.init(git, dir, "--object-format=" + format);
		String tree = repo.git("hash-object", "-t", "tree", "-w", "--stdin").trim();
		String c1 = object(repo, "commit", "tree " + tree + "\nauthor A U Thor <author@example.com> 1151968724 +0200\n"
				+ "committer C O Mitter <committer@example.com> 1151968723 -0130\n\nInitial: one/two\n");
		String c2 = object(repo, "commit",
				"tree " + tree + "\nparent " + c1 + "\nauthor Q <Q@Example.com> 1700000000 +0545\n"
						+ "committer C O Mitter <committer@example.com> 1700000100 +0000\n\n"
						+ "Second subject\nwraps here\n\nBody line one.\n\nSigned-off-by: A <a@b.c>\n"
						+ "Acked-by: B <b@c.d>\n");
		String t1 = object(repo, "tag", "object " + c2 + "\ntype commit\ntag t1\n"
				+ "tagger T Agger <tagger@example.com> 1600000000 -0800\n\nTag subject\n\nTag body\n");
		String tt = object(repo, "tag", "object " + t1 + "\ntype tag\ntag tt\n"
				+ "tagger T Agger <tagger@example.com> 1600000001 +1400\n\nTag of a tag\n");
		String signed = object(repo, "tag",
				"object " + c1 + "\ntype commit\ntag signed\n"
						+ "tagger T Agger <tagger@example.com> 1600000002 +0000\n\nSigned tag\n\nbody\n"
						+ "-----BEGIN PGP SIGNATURE-----\nabc\n-----END PGP SIGNATURE-----\n");
		String blob = repo.run("blob\n".getBytes(StandardCharsets.UTF_8), "hash-object", "-w", "--stdin")
			.requireOk()
			.stdout()
			.trim();
		String[][] refs = { { "refs/heads/main", c2 }, { "refs/heads/old", c1 }, { "refs/tags/t1", t1 },
				{ "refs/tags/tt", tt }, { "refs/tags/signed", signed }, { "refs/tags/light", c1 },
				{ "refs/tags/v1.10", c1 }, { "refs/tags/v1.9", c2 }, { "refs/blobs/b", blob }, { "refs/trees/t", tree },
				{ "refs/remotes/origin/main", c1 } };
		for (String[] ref : refs) {
			repo.git("update-ref", ref[0], ref[1]);
		}
		repo.git("symbolic-ref", "HEAD", "refs/heads/main");
		repo.git("config", "branch.main.remote", "origin");
		repo.git("config", "branch.main.merge", "refs/heads/main");
		repo.git("config", "remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*");
		repo.git("config", "branch.old.remote", "origin");
		repo.git("config", "branch.old.merge", "refs/heads/gone");
		Files.writeString(dir.resolve(".mailmap"), "A Thor <athor@example.com> A U Thor <author@example.com>\n");
		return repo;
	}

	private static String object(TempRepo repo, String type, String content) {
		return repo.run(content.getBytes(StandardCharsets.UTF_8), "hash-object", "-t", type, "-w", "--stdin")
			.requireOk()
			.stdout()
			.trim();
	}

	static Stream<String> formats() {
		return Stream.of("%(tree) %(parent) %(numparent) %(object) %(type) %(tag)",
				"%(tree:short) %(parent:short=9) %(object:short)", "%(objectsize) %(raw:size) %(deltabase)",
				"%(author)|%(authorname)|%(authoremail)|%(authoremail:trim)|%(authoremail:localpart)",
				"%(authorname:mailmap)|%(authoremail:mailmap,trim)", "%(committer)|%(committerdate)",
				"%(tagger)|%(taggername)|%(taggeremail:trim)|%(taggerdate)", "%(creator)|%(creatordate)",
				"%(subject)|%(subject:sanitize)|%(contents:subject)", "%(body)|%(contents:body)",
				"%(contents)|%(contents:signature)|%(contents:size)", "%(contents:lines=1)|%(contents:lines=3)",
				"%(trailers)|%(trailers:only,unfold)|%(trailers:key=acked-by,valueonly)",
				"%(trailers:separator=%x2C,key_value_separator=%x3D)", "%(raw)", "%(*raw)",
				"%(*objectname) %(*objecttype) %(*subject) %(*authordate) %(*taggerdate) %(*tag)",
				"%(authordate:iso)|%(authordate:iso-strict)|%(authordate:rfc)|%(authordate:short)",
				"%(committerdate:raw)|%(committerdate:unix)|%(taggerdate:iso8601-strict)",
				"%(authordate:format:%Y-%m-%d %H:%M:%S %z %a %b %e %j)", "%(HEAD)%(refname)",
				"%(upstream)|%(upstream:short)|%(upstream:track)|%(upstream:trackshort)|%(upstream:remotename)",
				"%(upstream:track,nobracket)|%(upstream:remoteref)|%(upstream:lstrip=-1)",
				"%(if)%(parent)%(then)merge:%(parent:short)%(else)root%(end)",
				"%(if:equals=commit)%(objecttype)%(then)C%(else)O%(end)|%(if:notequals=t1)%(tag)%(then)x%(end)",
				"[%(align:12,right)%(refname:short)%(end)][%(align:width=9,position=middle)%(objecttype)%(end)]");
	}

	@ParameterizedTest(name = "--format={0}")
	@MethodSource("formats")
	void formatsAsGitDoes(String format) {
		assertSameOutput(GitCli.reftable(), sha1.dir(), "for-each-ref", "--format=" + format);
		assertSameOutput(GitCli.reftable(), sha256.dir(), "for-each-ref", "--format=" + format);
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "--shell", "--perl", "--python", "--tcl" })
	void quotesAsGitDoes(String quote) {
		assertSameOutput(GitCli.reftable(), sha1.dir(), "for-each-ref", quote,
				"--format=%(refname) %(subject) %(if)%(body)%(then)%(body)%(end) %(authordate:iso)");
	}

	@ParameterizedTest(name = "--sort={0}")
	@ValueSource(strings = { "objectsize", "-objectsize", "authordate", "-creatordate", "subject", "version:refname",
			"-v:refname", "objecttype", "taggerdate" })
	void sortsAsGitDoes(String key) {
		assertSameOutput(GitCli.reftable(), sha1.dir(), "for-each-ref", "--sort=" + key, "--format=%(refname)");
	}

	@Test
	void sortsByManyKeys() {
		assertSameOutput(GitCli.reftable(), sha1.dir(), "for-each-ref", "--sort=refname", "--sort=-objecttype",
				"--format=%(objecttype) %(refname)");
		assertSameOutput(GitCli.reftable(), sha1.dir(), "for-each-ref", "--omit-empty", "--format=%(tag)");
	}

	@ParameterizedTest(name = "TZ={0}")
	@ValueSource(strings = { "UTC", "America/New_York", "Asia/Kolkata" })
	void localDatesFollowTz(String zone) {
		String format = "--format=%(authordate:local)|%(committerdate:iso-local)|%(taggerdate:rfc-local)"
				+ "|%(creatordate:short-local)|%(creatordate:format-local:%H:%M %z)";
		assertSame(GitCli.reftable().withEnv("TZ", zone).run(sha1.dir(), new byte[0], "for-each-ref", format),
				GitCli.refstore().withEnv("TZ", zone).run(sha1.dir(), new byte[0], "for-each-ref", format));
	}

	/**
	 * A tag whose {@code type} header names another type than its object has: git lists
	 * it, but refuses to peel it, with git's three lines.
	 */
	@Test
	void aTagLyingAboutItsObjectsTypeIsRefusedWhenPeeled() throws Exception {
		TempRepo repo = sha1.copyTo(temp.resolve("lying-tag"));
		String commit = repo.git("rev-parse", "refs/tags/t1^{}").trim();
		String lying = object(repo, "tag", "object " + commit + "\ntype blob\ntag lying\n"
				+ "tagger T Agger <tagger@example.com> 1600000000 -0800\n\nlies\n");
		repo.git("update-ref", "refs/tags/lying", lying);
		for (String format : new String[] { "%(*objectname)", "%(objectname)", "%(*objecttype)" }) {
			assertSameOutput(GitCli.reftable(), repo.dir(), "for-each-ref", "--format=" + format, "refs/tags/lying");
		}
		assertFails(refstore(repo.dir(), "for-each-ref", "--format=%(*objectname)", "refs/tags/"), 128,
				"error: object " + commit + " is a commit, not a blob\nerror: bad tag pointer to " + commit + " in "
						+ lying + "\nfatal: parse_object_buffer failed on " + lying + " for refs/tags/lying\n");
	}

	@Test
	void badAtomsFailAsInGit() {
		assertFails(refstore(sha1.dir(), "for-each-ref", "--format=%(authoremail:mailmaptrim)"), 128,
				"fatal: unrecognized %(authoremail) argument: trim");
		assertFails(refstore(sha1.dir(), "for-each-ref", "--format=%(authordate:bogus)"), 128,
				"fatal: unknown date format bogus");
		assertFails(refstore(sha1.dir(), "for-each-ref", "--format=%(if)x%(then)"), 128,
				"fatal: format: %(end) atom missing");
		assertFails(refstore(sha1.dir(), "for-each-ref", "--format=%(then)"), 128,
				"fatal: format: %(then) atom used without a %(if) atom");
		assertFails(refstore(sha1.dir(), "for-each-ref", "--shell", "--format=%(raw)"), 128,
				"fatal: --format=raw cannot be used with --python, --shell, --tcl");
	}

}
