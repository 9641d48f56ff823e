package io.refstore.core.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.RefCursor;
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

	private static Options options() {
		return new Options("refstore for-each-ref [--count=<count>] [(--sort=<key>)...] [--format=<format>]",
				"                             [--start-after=<marker>] [<pattern>...]")
			.value((char) 0, "count", "n", "show only <n> matched refs")
			.value((char) 0, "format", "format", "format to use for the output")
			.value((char) 0, "sort", "key", "field name to sort on (refname, or -refname for descending)")
			.value((char) 0, "start-after", "marker", "list only refs after <marker> (keyset paging)")
			.flag('s', "shell", "quote placeholders suitably for shells")
			.flag('p', "perl", "quote placeholders suitably for perl")
			.flag((char) 0, "python", "quote placeholders suitably for python")
			.flag((char) 0, "tcl", "quote placeholders suitably for Tcl")
			.flag((char) 0, "omit-empty", "do not output a newline after empty formatted refs")
			.flag((char) 0, "ignore-case", "sorting and filtering are case insensitive")
			.optionalValue((char) 0, "color", "when", "respect format colors");
	}

	/** A ref kept for sorting: copies of its name, resolved id and symbolic target. */
	private record Entry(byte[] name, byte[] id, byte[] target) {
	}

	@Override
	public int run(CommandContext context, List<String> args) throws CommandFailure, IOException {
		Options options = options();
		Options.Parsed parsed = options.parse(args);
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
		if (startAfter != null && !parsed.args().isEmpty()) {
			throw CommandFailure.fatal("cannot use --start-after with patterns");
		}
		boolean descending = descending(sortKeys);
		RefStore refs = context.refs();
		RefPatterns patterns = RefPatterns.of(parsed.args());
		String prefix = patterns.commonLiteralPrefix();
		RefQuery query = new RefQuery(prefix.startsWith("refs/") ? prefix : "", (startAfter != null) ? startAfter : "",
				false);
		boolean strictShortNames = context.repository()
			.config()
			.getBoolean("core", null, "warnAmbiguousRefs")
			.orElse(true);
		RefFields fields = new RefFields(refs.hashAlgorithm(), template.needsObjects() ? context.objects() : null,
				new RevParse(refs), strictShortNames, context.defaultAbbrev());
		FormatOptions.attach(context, parsed, template, fields);
		if (FormatOptions.customSort(sortKeys)) {
			RefSorting sorting = RefSorting.parse(sortKeys, parsed.flag("ignore-case"), fields);
			sorting.print(refs, query, patterns, template, fields, count, context.out());
		}
		else if (descending) {
			printDescending(refs, query, patterns, template, fields, count, context.out());
		}
		else if (count == 0 && template.needsTypesOnly()) {
			printBatched(refs, query, patterns, template, fields,
					new TypedBatch(refs.hashAlgorithm(), context.objects()), context.out());
		}
		else {
			printAscending(refs, query, patterns, template, fields, count, context.out());
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
			throw CommandFailure.usage("option `count' expects a numerical value", options.usage());
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
			RefFields fields, int count, OutBuffer out) throws CommandFailure, IOException {
		HashAlgorithm hash = refs.hashAlgorithm();
		byte[] resolved = new byte[hash.rawLength()];
		int printed = 0;
		try (RefCursor cursor = refs.refs(query)) {
			while (cursor.next()) {
				if (!patterns.matchesPath(cursor.nameBuffer(), cursor.nameLength())) {
					continue;
				}
				if (cursor.isSymbolic()) {
					Optional<DirectRef> target = refs.resolve(targetName(cursor));
					if (target.isEmpty()) {
						continue;
					}
					target.get().id().copyRawTo(resolved, 0);
					// git prints the end of the chain, not the next link
					byte[] finalName = target.get().name().getBytes(StandardCharsets.UTF_8);
					fields.set(cursor.nameBuffer(), cursor.nameLength(), resolved, finalName, finalName.length);
				}
				else {
					fields.set(cursor.nameBuffer(), cursor.nameLength(), cursor.idBuffer(), null, 0);
				}
				template.renderLine(fields, out);
				if (++printed == count) {
					return;
				}
			}
		}
	}

	/**
	 * {@link #printAscending} without a count, looking the types up a batch of refs at a
	 * time.
	 */
	private static void printBatched(RefStore refs, RefQuery query, RefPatterns patterns, FormatTemplate template,
			RefFields fields, TypedBatch batch, OutBuffer out) throws CommandFailure, IOException {
		HashAlgorithm hash = refs.hashAlgorithm();
		byte[] resolved = new byte[hash.rawLength()];
		try (RefCursor cursor = refs.refs(query)) {
			while (cursor.next()) {
				if (!patterns.matchesPath(cursor.nameBuffer(), cursor.nameLength())) {
					continue;
				}
				boolean full;
				if (cursor.isSymbolic()) {
					Optional<DirectRef> target = refs.resolve(targetName(cursor));
					if (target.isEmpty()) {
						continue;
					}
					target.get().id().copyRawTo(resolved, 0);
					// git prints the end of the chain, not the next link
					full = batch.add(cursor.nameBuffer(), cursor.nameLength(), resolved,
							target.get().name().getBytes(StandardCharsets.UTF_8));
				}
				else {
					full = batch.add(cursor.nameBuffer(), cursor.nameLength(), cursor.idBuffer(), null);
				}
				if (full) {
					batch.print(template, fields, out);
				}
			}
		}
		batch.print(template, fields, out);
	}

	private static void printDescending(RefStore refs, RefQuery query, RefPatterns patterns, FormatTemplate template,
			RefFields fields, int count, OutBuffer out) throws CommandFailure, IOException {
		List<Entry> entries = new ArrayList<>();
		try (RefCursor cursor = refs.refs(query)) {
			while (cursor.next()) {
				byte[] name = Arrays.copyOf(cursor.nameBuffer(), cursor.nameLength());
				if (!patterns.matchesPath(name, name.length)) {
					continue;
				}
				if (cursor.isSymbolic()) {
					Optional<DirectRef> target = refs.resolve(targetName(cursor));
					if (target.isPresent()) {
						entries.add(new Entry(name, target.get().id().toRaw(),
								target.get().name().getBytes(StandardCharsets.UTF_8)));
					}
				}
				else {
					entries.add(new Entry(name, Arrays.copyOf(cursor.idBuffer(), cursor.idBuffer().length), null));
				}
			}
		}
		int printed = 0;
		for (int i = entries.size() - 1; i >= 0; i--) {
			Entry entry = entries.get(i);
			fields.set(entry.name(), entry.name().length, entry.id(), entry.target(),
					(entry.target() != null) ? entry.target().length : 0);
			template.renderLine(fields, out);
			if (++printed == count) {
				return;
			}
		}
	}

	private static String targetName(RefCursor cursor) {
		return new String(cursor.targetBuffer(), 0, cursor.targetLength(), StandardCharsets.UTF_8);
	}

}
