package io.refstore.core.ref;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * {@link Wildmatch} against a plain table of every (pattern element, name offset) pair,
 * written from the rules in {@link Wildmatch}'s Javadoc, over generated patterns and
 * names: the segment-wise greedy match must say what the exhaustive one says.
 */
class WildmatchDifferentialTest {

	/** Pattern pieces; brackets and escapes only in the forms {@link Reference} reads. */
	private static final String[] PIECES = { "a", "b", "a", "b", "/", "/", "*", "*", "**", "***", "?", "[ab]", "[!a]",
			"[^b]", "[a-b]", "[]a]", "[[:alpha:]]", "[/]", "\\*", "\\/", "\\a", "\\\\", "-", "!" };

	private static final String NAME_BYTES = "aab/b*\\-!]";

	@Test
	void agreesWithAnExhaustiveMatchOnGeneratedPatterns() {
		Random random = new Random(34);
		int matched = 0;
		int cases = 50_000;
		for (int i = 0; i < cases; i++) {
			String pattern = pattern(random);
			String name = (random.nextInt(3) == 0) ? randomName(random) : instance(pattern, random);
			boolean expected = Reference.matches(pattern, name);
			byte[] text = name.getBytes(StandardCharsets.UTF_8);
			assertThat(Wildmatch.matches(pattern.getBytes(StandardCharsets.UTF_8), text, text.length))
				.as("%s against %s", pattern, name)
				.isEqualTo(expected);
			matched += expected ? 1 : 0;
		}
		// both answers occur often: the comparison is not one of empty results
		assertThat(matched).isBetween(cases / 10, cases - cases / 10);
	}

	@Test
	void everyNameAPatternMatchesEndsWithItsRequiredSuffix() {
		Random random = new Random(36);
		int matched = 0;
		int withSuffix = 0;
		for (int i = 0; i < 50_000; i++) {
			String pattern = pattern(random);
			String name = (random.nextInt(3) == 0) ? randomName(random) : instance(pattern, random);
			byte[] p = pattern.getBytes(StandardCharsets.UTF_8);
			byte[] suffix = Wildmatch.requiredSuffix(p);
			byte[] text = (name + "/x*y").getBytes(StandardCharsets.UTF_8);
			int length = name.getBytes(StandardCharsets.UTF_8).length;
			if (Reference.matches(pattern, name)) {
				matched++;
				withSuffix += (suffix.length > 0) ? 1 : 0;
				assertThat(Wildmatch.endsWith(text, length, suffix))
					.as("%s against %s: suffix %s", pattern, name, new String(suffix, StandardCharsets.UTF_8))
					.isTrue();
			}
		}
		// a quarter of the matches have a suffix to check: the check is not vacuous
		assertThat(withSuffix).isGreaterThan(matched / 5);
	}

	@Test
	void agreesWithAnExhaustiveMatchOnNamesInsideLongerBuffers() {
		Random random = new Random(35);
		for (int i = 0; i < 5_000; i++) {
			String pattern = pattern(random);
			String name = instance(pattern, random);
			byte[] buffer = (name + "/x*y").getBytes(StandardCharsets.UTF_8);
			int length = name.getBytes(StandardCharsets.UTF_8).length;
			assertThat(Wildmatch.matches(pattern.getBytes(StandardCharsets.UTF_8), buffer, length))
				.as("%s against %s", pattern, name)
				.isEqualTo(Reference.matches(pattern, name));
		}
	}

	private static String pattern(Random random) {
		StringBuilder pattern = new StringBuilder();
		int pieces = random.nextInt(10);
		for (int i = 0; i < pieces; i++) {
			pattern.append(PIECES[random.nextInt(PIECES.length)]);
		}
		return pattern.toString();
	}

	private static String randomName(Random random) {
		StringBuilder name = new StringBuilder();
		int length = random.nextInt(12);
		for (int i = 0; i < length; i++) {
			name.append(NAME_BYTES.charAt(random.nextInt(NAME_BYTES.length())));
		}
		return name.toString();
	}

	/** A name made to fit the pattern, most of the time: stars become random runs. */
	private static String instance(String pattern, Random random) {
		StringBuilder name = new StringBuilder();
		for (int i = 0; i < pattern.length(); i++) {
			char c = pattern.charAt(i);
			if (c == '*') {
				int run = random.nextInt(4);
				for (int k = 0; k < run; k++) {
					name.append("ab/".charAt(random.nextInt(3)));
				}
			}
			else if (c == '?' || c == '[') {
				name.append("ab".charAt(random.nextInt(2)));
				if (c == '[') {
					i = pattern.startsWith("[[:", i) ? pattern.indexOf("]]", i) + 1 : pattern.indexOf(']', i + 2);
				}
			}
			else if (c == '\\' && i + 1 < pattern.length()) {
				name.append(pattern.charAt(++i));
			}
			else {
				name.append(c);
			}
		}
		return name.toString();
	}

	/**
	 * The rules, matched exhaustively: {@code at[e][t]} says whether elements {@code e..}
	 * match the name from {@code t} on.
	 */
	static final class Reference {

		private enum Kind {

			BYTE, ANY, SET, STAR, DOUBLE_STAR

		}

		private record Element(Kind kind, int value, String members, boolean negated, boolean plainSlash) {
		}

		static boolean matches(String pattern, String name) {
			List<Element> elements = parse(pattern);
			if (elements == null) {
				return false;
			}
			int n = name.length();
			boolean[][] at = new boolean[elements.size() + 1][n + 1];
			at[elements.size()][n] = true;
			boolean[] crossing = new boolean[n + 2];
			for (int e = elements.size() - 1; e >= 0; e--) {
				Element element = elements.get(e);
				boolean skips = element.kind() == Kind.DOUBLE_STAR && e + 1 < elements.size()
						&& elements.get(e + 1).plainSlash();
				for (int t = n; t >= 0; t--) {
					char c = (t < n) ? name.charAt(t) : 0;
					// '**' takes any bytes; only where it starts may it drop its slash
					// too
					crossing[t] = at[e + 1][t] || (t < n && crossing[t + 1]);
					at[e][t] = switch (element.kind()) {
						case BYTE -> t < n && c == element.value() && at[e + 1][t + 1];
						case ANY -> t < n && c != '/' && at[e + 1][t + 1];
						case SET -> t < n && c != '/' && inSet(element, c) && at[e + 1][t + 1];
						case STAR -> at[e + 1][t] || (t < n && c != '/' && at[e][t + 1]);
						case DOUBLE_STAR -> crossing[t] || (skips && at[e + 2][t]);
					};
				}
			}
			return at[0][0];
		}

		/** The elements, or {@code null} for a malformed pattern. */
		private static List<Element> parse(String p) {
			List<Element> elements = new ArrayList<>();
			for (int i = 0; i < p.length(); i++) {
				char c = p.charAt(i);
				if (c == '*') {
					int end = i;
					while (end < p.length() && p.charAt(end) == '*') {
						end++;
					}
					boolean before = i == 0 || p.charAt(i - 1) == '/';
					boolean after = end == p.length() || p.charAt(end) == '/' || p.startsWith("\\/", end);
					elements.add(new Element((end - i >= 2 && before && after) ? Kind.DOUBLE_STAR : Kind.STAR, 0, null,
							false, false));
					i = end - 1;
				}
				else if (c == '?') {
					elements.add(new Element(Kind.ANY, 0, null, false, false));
				}
				else if (c == '\\') {
					if (i + 1 == p.length()) {
						return null;
					}
					elements.add(new Element(Kind.BYTE, p.charAt(++i), null, false, false));
				}
				else if (c == '[') {
					int close = p.indexOf(']', i + 2);
					if (close < 0) {
						return null;
					}
					String body = p.substring(i + 1, close);
					if (body.equals("[:alpha:")) {
						close++;
						body = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
					}
					boolean negated = body.startsWith("!") || body.startsWith("^");
					elements.add(new Element(Kind.SET, 0, negated ? body.substring(1) : body, negated, false));
					i = close;
				}
				else {
					elements.add(new Element(Kind.BYTE, c, null, false, c == '/'));
				}
			}
			return elements;
		}

		private static boolean inSet(Element set, char c) {
			String members = set.members();
			boolean in = false;
			for (int i = 0; i < members.length(); i++) {
				if (i + 2 < members.length() && members.charAt(i + 1) == '-') {
					in |= c >= members.charAt(i) && c <= members.charAt(i + 2);
					i += 2;
				}
				else {
					in |= c == members.charAt(i);
				}
			}
			return in != set.negated();
		}

	}

}
