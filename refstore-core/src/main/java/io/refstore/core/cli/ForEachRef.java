package io.refstore.core.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.env.OutBuffer;
import io.refstore.core.cli.format.BaseAtoms;
import io.refstore.core.cli.format.FormatOptions;
import io.refstore.core.cli.format.FormatTemplate;
import io.refstore.core.cli.format.RefFields;
import io.refstore.core.cli.format.RefObjectFilter;
import io.refstore.core.cli.format.RefObjectFilter.Entry;
import io.refstore.core.cli.format.RefSorting;
import io.refstore.core.cli.format.SharedLines;
import io.refstore.core.cli.format.TypedBatch;
import io.refstore.core.cli.options.Options;
import io.refstore.core.cli.revision.RevParse;
import io.refstore.core.graph.CommitWalk;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.RefQuery;
import io.refstore.core.ref.RefStore;

/**
 * {@code refstore for-each-ref}: prints refs in a format, as {@code git for-each-ref}
 * does, plus {@code --start-after=<ref>} (newer than git 2.39) for keyset paging: only
 * refs sorting bytewise after the given name are listed.
 *
 * <p>
 * In the default order refs stream from the store's cursor: the cursor seeks to the
 * patterns' common literal prefix, and nothing is allocated per ref for the default
 * format. {@code --sort=-refname} collects the matches first.
 */
final class ForEachRef implements Command {

	private final String name;

	/** {@code for-each-ref}. */
	ForEachRef() {
		this("refstore for-each-ref");
	}

	/**
	 * @param name the command as its usage names it, such as {@code git refs list}
	 */
	ForEachRef(String name) {
		this.name = name;
	}

	private Options options() {
		// git's synopsis; its continuation lines keep one indent whatever the command's
		// name
		String indent = " ".repeat(25);
		return new Options(this.name + " [--count=<count>] [--shell|--perl|--python|--tcl]",
				indent + "[(--sort=<key>)...] [--format=<format>]",
				indent + "[--include-root-refs] [--points-at=<object>]",
				indent + "[--merged[=<object>]] [--no-merged[=<object>]]",
				indent + "[--contains[=<object>]] [--no-contains[=<object>]]",
				indent + "[(--exclude=<pattern>)...] [--start-after=<marker>]", indent + "[ --stdin | (<pattern>...)]")
			.flag('s', "shell", "quote placeholders suitably for shells")
			.flag('p', "perl", "quote placeholders suitably for perl")
			.flag((char) 0, "python", "quote placeholders suitably for python")
			.flag((char) 0, "tcl", "quote placeholders suitably for Tcl")
			.flag((char) 0, "omit-empty", "do not output a newline after empty formatted refs")
			.group()
			.value((char) 0, "count", "n", "show only <n> matched refs")
			.value((char) 0, "format", "format", "format to use for the output")
			.value((char) 0, "start-after", "marker", "start iteration after the provided marker")
			.optionalValue((char) 0, "color", "when", "respect format colors")
			.value((char) 0, "exclude", "pattern", "exclude refs which match pattern")
			.value((char) 0, "sort", "key", "field name to sort on")
			.value((char) 0, "points-at", "object", "print only refs which points at the given object")
			.optionalValue((char) 0, "merged", "commit", "print only refs that are merged")
			.showAs("merged", "--merged <commit>")
			.optionalValue((char) 0, "no-merged", "commit", "print only refs that are not merged")
			.showAs("no-merged", "--no-merged <commit>")
			.optionalValue((char) 0, "contains", "commit", "print only refs which contain the commit")
			.showAs("contains", "--contains <commit>")
			.optionalValue((char) 0, "no-contains", "commit", "print only refs which don't contain the commit")
			.showAs("no-contains", "--no-contains <commit>")
			.flag((char) 0, "ignore-case", "sorting and filtering are case insensitive")
			.flag((char) 0, "stdin", "read reference patterns from stdin")
			.flag((char) 0, "include-root-refs", "also include HEAD ref and pseudorefs");
	}

	/**
	 * The options whose value is optional on their own, but which take the next argument
	 * as their value unless they are last (git's {@code LASTARG_DEFAULT}).
	 */
	private static final List<String> LASTARG_DEFAULT = List.of("--merged", "--no-merged", "--contains",
			"--no-contains");

	@Override
	public int run(CommandContext context, List<String> args) throws CommandFailure, IOException {
		Options options = options();
		Options.Parsed parsed = options.parse(joinLastArgDefaults(args));
		int count = count(parsed, options);
		String format = (parsed.value("format") != null) ? parsed.value("format") : FormatTemplate.DEFAULT;
		FormatTemplate template = FormatTemplate.parse(format, options.usage(),
				FormatOptions.quote(parsed, options.usage()));
		template.omitEmpty(parsed.flag("omit-empty"));
		String startAfter = parsed.value("start-after");
		List<String> sortKeys = parsed.values("sort");
		if (startAfter != null && sortKeys.stream().anyMatch((key) -> !key.equals("refname"))) {
			throw CommandFailure.fatal("cannot use --start-after with custom sort options");
		}
		List<String> patternArgs = parsed.args();
		if (parsed.flag("stdin")) {
			if (!patternArgs.isEmpty()) {
				throw CommandFailure.fatal("unknown arguments supplied with --stdin");
			}
			patternArgs = stdinPatterns(context);
		}
		if (startAfter != null && !patternArgs.isEmpty()) {
			throw CommandFailure.fatal("cannot use --start-after with patterns");
		}
		boolean descending = descending(sortKeys);
		RefStore refs = context.refs();
		RefPatterns patterns = RefPatterns.of(patternArgs, parsed.values("exclude"), parsed.flag("ignore-case"));
		String prefix = patterns.commonLiteralPrefix();
		RefQuery query = new RefQuery(prefix.startsWith("refs/") ? prefix : "", (startAfter != null) ? startAfter : "",
				parsed.flag("include-root-refs"))
			.withBroken();
		boolean strictShortNames = context.repository()
			.config()
			.getBoolean("core", null, "warnAmbiguousRefs")
			.orElse(true);
		RefFields fields = new RefFields(refs.hashAlgorithm(), template.needsObjects() ? context.objects() : null,
				new RevParse(refs), strictShortNames, context.defaultAbbrev());
		FormatOptions.attach(context, parsed, template, fields);
		boolean customSort = FormatOptions.customSort(sortKeys);
		List<FormatTemplate.Segment> atoms = new ArrayList<>(template.segments());
		if (customSort) {
			atoms.addAll(RefSorting.atoms(sortKeys));
		}
		boolean baseAtoms = BaseAtoms.any(atoms);
		if (!RefObjectFilter.none(parsed) || customSort || baseAtoms) {
			List<Entry> entries = collect(refs, query, patterns, context);
			if (!RefObjectFilter.none(parsed)) {
				boolean walks = parsed.given("merged") || parsed.given("no-merged") || parsed.given("contains")
						|| parsed.given("no-contains");
				CommitWalk walk = walks ? RefObjectFilter.walk(context) : null;
				RefObjectFilter filter = RefObjectFilter.of(parsed, new RevParse(refs, context::objects), walk);
				entries = filter.apply(entries, refs.hashAlgorithm(), context.objects(), walk,
						refs.format() == RefFormat.FILES);
			}
			if (baseAtoms) {
				fields.baseAtoms(BaseAtoms.compute(atoms, entries, context, context::message));
			}
			if (customSort) {
				RefSorting.parse(sortKeys, parsed.flag("ignore-case"), fields)
					.print(entries, template, fields, count, context.out());
			}
			else {
				print(entries, descending, template, fields, count, context.out());
			}
		}
		else if (descending) {
			print(collect(refs, query, patterns, context), true, template, fields, count, context.out());
		}
		else if (count == 0 && template.needsTypesOnly()) {
			printBatched(refs, query, patterns, template, fields,
					new TypedBatch(refs.hashAlgorithm(), context.objects()), context.out(), context);
		}
		else {
			printAscending(refs, query, patterns, template, fields, count, context.out(), context);
		}
		return 0;
	}

	private static int count(Options.Parsed parsed, Options options) throws CommandFailure {
		String value = parsed.value("count");
		if (value == null) {
			return 0;
		}
		int count;
		try {
			count = Integer.parseInt(value);
		}
		catch (NumberFormatException ex) {
			throw CommandFailure.error("option `count' expects an integer value with an optional k/m/g suffix",
					CommandFailure.USAGE);
		}
		if (count < 0) {
			throw CommandFailure.usage("invalid --count argument: `" + value + "'", options.usage());
		}
		return count;
	}

	/**
	 * Whether the primary (last) sort key is {@code -refname}; refname is a total order,
	 * so it decides alone.
	 */
	private static boolean descending(List<String> sortKeys) throws CommandFailure {
		boolean descending = false;
		if (FormatOptions.customSort(sortKeys)) {
			return false;
		}
		for (String key : sortKeys) {
			descending = key.startsWith("-");
			String field = descending ? key.substring(1) : key;
			if (!field.equals("refname")) {
				throw CommandFailure.fatal("unsupported sort key: " + field + " (refstore sorts by refname only)");
			}
		}
		return descending;
	}

	private static void printAscending(RefStore refs, RefQuery query, RefPatterns patterns, FormatTemplate template,
			RefFields fields, int count, OutBuffer out, CommandContext context) throws CommandFailure, IOException {
		if (template.shareable() && template.readsObjects()) {
			try (SharedLines lines = new SharedLines(template, fields, out)) {
				int[] added = { 0 };
				stream(refs, query, patterns, context, (name, nameLength, id, target) -> {
					lines.add(new Entry(Arrays.copyOf(name, nameLength), id.clone(), target));
					return ++added[0] != count;
				});
				lines.finish();
			}
			return;
		}
		int[] printed = { 0 };
		stream(refs, query, patterns, context, (name, nameLength, id, target) -> {
			fields.set(name, nameLength, id, target, (target != null) ? target.length : 0);
			template.renderLine(fields, out);
			return ++printed[0] != count;
		});
	}

	/**
	 * {@link #printAscending} without a count, looking the types up a batch of refs at a
	 * time.
	 */
	private static void printBatched(RefStore refs, RefQuery query, RefPatterns patterns, FormatTemplate template,
			RefFields fields, TypedBatch batch, OutBuffer out, CommandContext context)
			throws CommandFailure, IOException {
		stream(refs, query, patterns, context, (name, nameLength, id, target) -> {
			if (batch.add(name, nameLength, id, target)) {
				batch.print(template, fields, out);
			}
			return true;
		});
		batch.print(template, fields, out);
	}

	/** The refs the patterns match, in the store's order. */
	private static List<Entry> collect(RefStore refs, RefQuery query, RefPatterns patterns, CommandContext context)
			throws CommandFailure, IOException {
		List<Entry> entries = new ArrayList<>();
		stream(refs, query, patterns, context, (name, nameLength, id, target) -> {
			entries.add(new Entry(Arrays.copyOf(name, nameLength), id.clone(), target));
			return true;
		});
		return entries;
	}

	/** Takes the refs {@link #stream} lists, one at a time. */
	@FunctionalInterface
	private interface Listed {

		/**
		 * @param name the name's bytes, valid until the next ref
		 * @param nameLength the name's length
		 * @param id the raw id (of the end of the chain, for a symbolic ref), valid until
		 * the next ref
		 * @param target the name of the chain's end for a symbolic ref (git prints that,
		 * not the next link), or {@code null}
		 * @return whether to go on
		 */
		boolean ref(byte[] name, int nameLength, byte[] id, byte[] target) throws CommandFailure, IOException;

	}

	/**
	 * Lists the refs the patterns match in the store's order, leaving out broken refs
	 * (with git's warning) and symbolic refs that lead nowhere.
	 */
	private static void stream(RefStore refs, RefQuery query, RefPatterns patterns, CommandContext context,
			Listed listed) throws CommandFailure, IOException {
		byte[] resolved = new byte[refs.hashAlgorithm().rawLength()];
		try (RefCursor cursor = refs.refs(query)) {
			while (cursor.next()) {
				if (!patterns.matchesPath(cursor.nameBuffer(), cursor.nameLength())) {
					continue;
				}
				if (isBroken(cursor, context)) {
					continue;
				}
				boolean more;
				if (cursor.isSymbolic()) {
					Optional<DirectRef> target = refs.resolve(targetName(cursor));
					if (target.isEmpty()) {
						continue;
					}
					target.get().id().copyRawTo(resolved, 0);
					more = listed.ref(cursor.nameBuffer(), cursor.nameLength(), resolved,
							target.get().name().getBytes(StandardCharsets.UTF_8));
				}
				else {
					more = listed.ref(cursor.nameBuffer(), cursor.nameLength(), cursor.idBuffer(), null);
				}
				if (!more) {
					return;
				}
			}
		}
	}

	private static void print(List<Entry> entries, boolean descending, FormatTemplate template, RefFields fields,
			int count, OutBuffer out) throws CommandFailure, IOException {
		int size = (count == 0) ? entries.size() : Math.min(count, entries.size());
		if (template.shareable() && template.readsObjects()) {
			try (SharedLines lines = new SharedLines(template, fields, out)) {
				for (int i = 0; i < size; i++) {
					lines.add(entries.get(descending ? entries.size() - 1 - i : i));
				}
				lines.finish();
			}
			return;
		}
		for (int i = 0; i < size; i++) {
			Entry entry = entries.get(descending ? entries.size() - 1 - i : i);
			fields.set(entry.name(), entry.name().length, entry.id(), entry.target(),
					(entry.target() != null) ? entry.target().length : 0);
			if (entry.type() != null) {
				fields.knownType(entry.type());
			}
			template.renderLine(fields, out);
		}
	}

	/**
	 * Joins {@code --merged <commit>} into {@code --merged=<commit>} where the option is
	 * not the last argument, as git's parser takes the next argument then.
	 */
	private static List<String> joinLastArgDefaults(List<String> args) {
		List<String> joined = new ArrayList<>(args.size());
		for (int i = 0; i < args.size(); i++) {
			String arg = args.get(i);
			if (arg.equals("--")) {
				joined.addAll(args.subList(i, args.size()));
				break;
			}
			if (LASTARG_DEFAULT.contains(arg) && i + 1 < args.size()) {
				joined.add(arg + "=" + args.get(++i));
			}
			else {
				joined.add(arg);
			}
		}
		return joined;
	}

	/** {@code --stdin}: one pattern a line. */
	private static List<String> stdinPatterns(CommandContext context) throws IOException {
		List<String> patterns = new ArrayList<>();
		BufferedReader lines = new BufferedReader(new InputStreamReader(context.in(), StandardCharsets.UTF_8));
		for (String line = lines.readLine(); line != null; line = lines.readLine()) {
			patterns.add(line);
		}
		return patterns;
	}

	/**
	 * Whether a ref is broken: it names the null object id, which git takes for a corrupt
	 * ref, or its value cannot be read (the store gives it the null id,
	 * {@link RefCursor#isBroken()}): git warns and leaves it out. A byte loop over the
	 * id, so the plain path stays allocation-free.
	 */
	private static boolean isBroken(RefCursor cursor, CommandContext context) throws IOException {
		if (cursor.isSymbolic()) {
			return false;
		}
		byte[] id = cursor.idBuffer();
		for (byte b : id) {
			if (b != 0) {
				return false;
			}
		}
		context.warning("ignoring broken ref "
				+ new String(cursor.nameBuffer(), 0, cursor.nameLength(), StandardCharsets.UTF_8));
		return true;
	}

	private static String targetName(RefCursor cursor) {
		return new String(cursor.targetBuffer(), 0, cursor.targetLength(), StandardCharsets.UTF_8);
	}

}
