package io.refstore.core.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.env.OutBuffer;
import io.refstore.core.cli.options.Options;
import io.refstore.core.cli.revision.RevParse;
import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefName;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;

/**
 * {@code refstore show-ref}: lists refs with their object ids, as {@code git show-ref}
 * does.
 *
 * <p>
 * Patterns match the tail of a name at a component boundary; {@code --verify} takes exact
 * full names and fails on the first that does not resolve. Exit code 1 when nothing
 * matches. Refs are streamed from the store's cursor without a string per ref.
 */
final class ShowRef implements Command {

	private static Options options() {
		return new Options("refstore show-ref [--head] [-d | --dereference]",
				"                  [-s | --hash[=<n>]] [--abbrev[=<n>]] [--branches] [--tags]",
				"                  [--] [<pattern>...]",
				"refstore show-ref --verify [-q | --quiet] [-d | --dereference]",
				"                  [-s | --hash[=<n>]] [--abbrev[=<n>]]", "                  [--] [<ref>...]",
				"refstore show-ref --exclude-existing[=<pattern>]", "refstore show-ref --exists <ref>")
			.flag((char) 0, "tags", "only show tags (can be combined with --branches)")
			.flag((char) 0, "branches", "only show branches (can be combined with --tags)")
			.flag((char) 0, "heads", "only show branches (can be combined with --tags)")
			.hide("heads")
			.flag((char) 0, "exists", "check for reference existence without resolving")
			.flag((char) 0, "verify", "stricter reference checking, requires exact ref path")
			.flag((char) 0, "head", "show the HEAD reference, even if it would be filtered out")
			.flag('d', "dereference", "dereference tags into object IDs")
			.optionalValue('s', "hash", "n", "only show SHA1 hash using <n> digits")
			.optionalValue((char) 0, "abbrev", "n", "use <n> digits to display object names")
			.flag('q', "quiet", "do not print results to stdout (useful with --verify)")
			.optionalValue((char) 0, "exclude-existing", "pattern",
					"show refs from stdin that aren't in local repository")
			.noNegation("exclude-existing");
	}

	private CommandContext context;

	private ObjectDatabase objects;

	private boolean quiet;

	private boolean dereference;

	private boolean hashOnly;

	private int digits;

	@Override
	public int run(CommandContext context, List<String> args) throws CommandFailure, IOException {
		Options options = options();
		Options.Parsed parsed = options.parse(args);
		this.context = context;
		exclusive(parsed);
		if (parsed.given("exclude-existing")) {
			return excludeExisting(context, parsed.value("exclude-existing"));
		}
		if (parsed.flag("exists")) {
			if (parsed.args().size() != 1) {
				throw CommandFailure.fatal(parsed.args().isEmpty() ? "--exists requires a reference"
						: "--exists requires exactly one reference");
			}
			return RefExists.check(context, parsed.args().get(0));
		}
		this.quiet = parsed.flag("quiet");
		this.dereference = parsed.flag("dereference");
		this.hashOnly = parsed.given("hash");
		RefStore refs = context.refs();
		this.objects = context.objects();
		this.digits = digits(parsed, options, refs.hashAlgorithm());
		RefPatterns patterns = RefPatterns.of(parsed.args());
		if (parsed.flag("verify")) {
			return verify(refs, parsed.args());
		}
		int found = 0;
		if (parsed.flag("head")) {
			Optional<DirectRef> head = refs.resolve("HEAD");
			if (head.isPresent()) {
				showOne("HEAD", head.get());
				found++;
			}
		}
		boolean heads = parsed.flag("branches") || parsed.flag("heads");
		boolean tags = parsed.flag("tags");
		if (heads || tags) {
			found += (heads ? list(refs, "refs/heads/", patterns) : 0)
					+ (tags ? list(refs, "refs/tags/", patterns) : 0);
		}
		else {
			found += list(refs, "", patterns);
		}
		return (found > 0) ? 0 : 1;
	}

	/** git's three sub-modes exclude each other. */
	private static void exclusive(Options.Parsed parsed) throws CommandFailure {
		String first = null;
		for (String mode : List.of("exclude-existing", "verify", "exists")) {
			boolean on = mode.equals("exclude-existing") ? parsed.given(mode) : parsed.flag(mode);
			if (!on) {
				continue;
			}
			if (first != null) {
				throw CommandFailure.fatal("options '--" + first + "' and '--" + mode + "' cannot be used together");
			}
			first = mode;
		}
	}

	/**
	 * Prints the lines of standard input whose ref (the last word, less a trailing
	 * {@code ^{}}) starts with {@code pattern} if given, is well formed, and does not
	 * exist here; a malformed name is warned about and skipped.
	 */
	private static int excludeExisting(CommandContext context, String pattern) throws IOException {
		BufferedReader lines = new BufferedReader(new InputStreamReader(context.in(), StandardCharsets.UTF_8));
		RefStore refs = context.refs();
		OutBuffer out = context.out();
		for (String line = lines.readLine(); line != null; line = lines.readLine()) {
			if (line.endsWith("^{}")) {
				line = line.substring(0, line.length() - 3);
			}
			int start = line.length();
			while (start > 0 && !Character.isWhitespace(line.charAt(start - 1))) {
				start--;
			}
			String ref = line.substring(start);
			if (pattern != null && !ref.startsWith(pattern)) {
				continue;
			}
			if (!RefName.isValid(ref, false)) {
				context.warning("ref '" + ref + "' ignored");
				continue;
			}
			if (refs.resolve(ref).isEmpty()) {
				out.write(line);
				out.write('\n');
			}
		}
		return 0;
	}

	private int digits(Options.Parsed parsed, Options options, HashAlgorithm hash) throws CommandFailure, IOException {
		int hex = hash.hexLength();
		String key = (parsed.value("hash") != null) ? "hash" : "abbrev";
		if (!parsed.given(key)) {
			return hex;
		}
		String value = parsed.value(key);
		if (value == null) {
			return (key.equals("hash")) ? hex : this.context.defaultAbbrev();
		}
		int n;
		try {
			n = Integer.parseInt(value);
		}
		catch (NumberFormatException ex) {
			throw CommandFailure.usage("option `" + key + "' expects a numerical value", options.usage());
		}
		return (n == 0) ? hex : Math.min(Math.max(n, CommandContext.MINIMUM_ABBREV), hex);
	}

	private int verify(RefStore refs, List<String> names) throws CommandFailure, IOException {
		if (names.isEmpty()) {
			throw CommandFailure.fatal("--verify requires a reference");
		}
		RevParse revParse = new RevParse(refs);
		for (String name : names) {
			Optional<DirectRef> ref = (name.startsWith("refs/") || RefName.isRootRefSyntax(name))
					? revParse.resolveRef(name) : Optional.empty();
			if (ref.isPresent()) {
				showOne(name, ref.get());
			}
			else if (!this.quiet) {
				throw CommandFailure.fatal("'" + name + "' - not a valid ref");
			}
			else {
				return 1;
			}
		}
		return 0;
	}

	private int list(RefStore refs, String prefix, RefPatterns patterns) throws CommandFailure, IOException {
		int found = 0;
		OutBuffer out = this.context.out();
		HashAlgorithm hash = refs.hashAlgorithm();
		try (RefCursor cursor = refs.refs(RefQuery.prefix(prefix))) {
			while (cursor.next()) {
				byte[] name = cursor.nameBuffer();
				int nameLength = cursor.nameLength();
				if (!patterns.matchesTail(name, nameLength)) {
					continue;
				}
				if (cursor.isSymbolic()) {
					Optional<DirectRef> target = refs
						.resolve(new String(cursor.targetBuffer(), 0, cursor.targetLength(), StandardCharsets.UTF_8));
					if (target.isEmpty()) {
						continue;
					}
					showOne(cursor.name(), target.get());
					found++;
					continue;
				}
				ObjectId id = ObjectId.fromRaw(hash, cursor.idBuffer(), 0);
				if (!this.objects.exists(id)) {
					throw badRef(cursor.name(), id);
				}
				found++;
				if (this.quiet) {
					continue;
				}
				out.writeHex(cursor.idBuffer(), hash.rawLength(), this.digits);
				if (!this.hashOnly) {
					out.write(' ');
					out.write(name, 0, nameLength);
				}
				out.write('\n');
				if (this.dereference) {
					ObjectId peeled = cursor.hasPeeled() ? ObjectId.fromRaw(hash, cursor.peeledBuffer(), 0)
							: cursor.peelKnown() ? null : this.objects.peel(id);
					if (peeled != null) {
						writePeeled(peeled, name, nameLength);
					}
				}
			}
		}
		return found;
	}

	private void showOne(String name, DirectRef ref) throws CommandFailure, IOException {
		if (!this.objects.exists(ref.id())) {
			throw badRef(name, ref.id());
		}
		if (this.quiet) {
			return;
		}
		OutBuffer out = this.context.out();
		out.writeHex(ref.id(), this.digits);
		if (!this.hashOnly) {
			out.write(' ');
			out.write(name);
		}
		out.write('\n');
		if (this.dereference) {
			ObjectId peeled = (ref.peeled() != null) ? ref.peeled() : this.objects.peel(ref.id());
			if (peeled != null) {
				byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
				writePeeled(peeled, bytes, bytes.length);
			}
		}
	}

	private void writePeeled(ObjectId peeled, byte[] name, int nameLength) throws IOException {
		OutBuffer out = this.context.out();
		out.writeHex(peeled, this.digits);
		out.write(' ');
		out.write(name, 0, nameLength);
		out.write('^');
		out.write('{');
		out.write('}');
		out.write('\n');
	}

	private static CommandFailure badRef(String name, ObjectId id) {
		return CommandFailure.fatal("bad ref " + name + " (" + id.name() + "): the object does not exist");
	}

}
