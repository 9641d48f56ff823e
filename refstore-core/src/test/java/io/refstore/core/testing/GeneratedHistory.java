package io.refstore.core.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random histories for tests that compare commit facts with git's: main merging lines of
 * work (so refs fork from commits off main's first-parent chain), octopus merges, a
 * second root, branches and tags (annotated, lightweight, of a tree, of a blob, of a tag)
 * on random commits, a symbolic ref and a pull-request ref.
 */
public final class GeneratedHistory {

	private GeneratedHistory() {
	}

	/**
	 * A random history by {@code git fast-import}: several lines of work that fork from
	 * each other and merge (main merges most of them), branches and tags on random
	 * commits.
	 */
	public static void generate(TempRepo repo, Random random, int commits) throws IOException {
		StringBuilder stream = new StringBuilder();
		List<Integer> lineTips = new ArrayList<>();
		int mainTip = 0;
		long time = 1_600_000_000L;
		for (int mark = 1; mark <= commits; mark++) {
			time += 60 + random.nextInt(86_400 * 3);
			List<Integer> parents = new ArrayList<>();
			String ref;
			int choice = random.nextInt(10);
			if (mark == 1 || (mark == commits / 2)) {
				ref = "refs/heads/root" + mark;
			}
			else if (choice < 4) {
				// main moves on, sometimes merging a line of work (or two: an octopus)
				ref = "refs/heads/main";
				parents.add(mainTip);
				if (!lineTips.isEmpty() && random.nextInt(3) == 0) {
					parents.add(lineTips.remove(random.nextInt(lineTips.size())));
					if (!lineTips.isEmpty() && random.nextInt(5) == 0) {
						parents.add(lineTips.remove(random.nextInt(lineTips.size())));
					}
				}
			}
			else if (choice < 6 || lineTips.isEmpty()) {
				// a new line of work forks from main or from another line
				ref = "refs/heads/work";
				int from = (random.nextBoolean() || lineTips.isEmpty()) ? mainTip
						: lineTips.get(random.nextInt(lineTips.size()));
				parents.add(from);
				lineTips.add(mark);
			}
			else {
				ref = "refs/heads/work";
				int line = random.nextInt(lineTips.size());
				parents.add(lineTips.get(line));
				lineTips.set(line, mark);
			}
			parents.removeIf((parent) -> parent == 0);
			stream.append("commit ").append(ref).append('\n');
			stream.append("mark :").append(mark).append('\n');
			stream.append("committer C <c@example.com> ").append(time).append(" +0100\n");
			stream.append("data <<END\ncommit ").append(mark).append("\nEND\n");
			for (int p = 0; p < parents.size(); p++) {
				stream.append((p == 0) ? "from :" : "merge :").append(parents.get(p)).append('\n');
			}
			stream.append("M 644 inline f").append(mark % 7).append("\ndata <<END\n").append(mark).append("\nEND\n\n");
			if (ref.equals("refs/heads/main") || mark == 1) {
				mainTip = mark;
			}
			if (random.nextInt(4) == 0) {
				stream.append("reset refs/heads/topic/").append(mark).append("\nfrom :").append(mark).append("\n\n");
			}
			if (random.nextInt(25) == 0) {
				stream.append("tag v").append(mark).append("\nfrom :").append(mark).append('\n');
				stream.append("tagger T <t@example.com> ").append(time + 30).append(" -0500\n");
				stream.append("data <<END\nrelease ").append(mark).append("\nEND\n\n");
			}
			if (random.nextInt(30) == 0) {
				stream.append("reset refs/tags/light").append(mark).append("\nfrom :").append(mark).append("\n\n");
			}
		}
		for (int line = 0; line < lineTips.size(); line++) {
			stream.append("reset refs/heads/line/")
				.append(line)
				.append("\nfrom :")
				.append(lineTips.get(line))
				.append("\n\n");
		}
		stream.append("reset refs/heads/main\nfrom :").append(mainTip).append("\n\n");
		repo.run(stream.toString().getBytes(StandardCharsets.UTF_8), "fast-import", "--quiet").requireOk();
		repo.git("update-ref", "-d", "refs/heads/work");
		String tree = repo.git("rev-parse", "main^{tree}").trim();
		String blob = repo.git("rev-parse", "main:f1").trim();
		repo.git("update-ref", "refs/tags/tree", tree);
		repo.git("update-ref", "refs/tags/blob", blob);
		repo.git("tag", "-a", "-m", "a tree", "tree-tag", tree);
		repo.git("tag", "-a", "-m", "a tag", "tag-of-tag", repo.git("rev-parse", "refs/tags/tree-tag").trim());
		String firstTag = repo.git("for-each-ref", "--count=1", "--format=%(refname)", "refs/tags/v*").trim();
		if (!firstTag.isEmpty()) {
			repo.git("tag", "-a", "-m", "nested", "nested", firstTag);
		}
		repo.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/heads/main");
		repo.git("update-ref", "refs/pull/1/head", "main~3");
	}

}
