package io.refstore.core.cli.format;

import io.refstore.core.cli.env.CommandFailure;

/**
 * How a name atom ({@code refname}, {@code symref}, {@code upstream}, {@code push}) is
 * shown: {@code short}, {@code lstrip=N}/{@code strip=N}, {@code rstrip=N}, and for
 * upstream and push {@code track}, {@code trackshort} (with {@code nobracket}),
 * {@code remotename}, {@code remoteref}.
 *
 * @param kind what to show
 * @param number the strip count
 * @param brackets whether {@code track} wraps its text in brackets
 */
record NameModifier(Kind kind, int number, boolean brackets) {

	/** What a name atom shows. */
	enum Kind {

		FULL, SHORT, LSTRIP, RSTRIP, TRACK, TRACKSHORT, REMOTENAME, REMOTEREF

	}

	static NameModifier parse(String name, String arg) throws CommandFailure {
		if (arg == null || arg.isEmpty()) {
			return new NameModifier(Kind.FULL, 0, true);
		}
		boolean remote = name.equals("upstream") || name.equals("push");
		Kind kind = null;
		boolean brackets = true;
		int number = 0;
		for (String part : arg.split(",", -1)) {
			if (part.equals("short")) {
				kind = Kind.SHORT;
			}
			else if (part.startsWith("lstrip=") || part.startsWith("strip=") || part.startsWith("rstrip=")) {
				String digits = part.substring(part.indexOf('=') + 1);
				try {
					number = Integer.parseInt(digits);
				}
				catch (NumberFormatException ex) {
					throw CommandFailure.fatal("Integer value expected refname:" + part);
				}
				kind = part.startsWith("rstrip=") ? Kind.RSTRIP : Kind.LSTRIP;
			}
			else if (remote && part.equals("track")) {
				kind = Kind.TRACK;
			}
			else if (remote && part.equals("trackshort")) {
				kind = Kind.TRACKSHORT;
			}
			else if (remote && part.equals("nobracket")) {
				brackets = false;
			}
			else if (remote && part.equals("remotename")) {
				kind = Kind.REMOTENAME;
			}
			else if (remote && part.equals("remoteref")) {
				kind = Kind.REMOTEREF;
			}
			else {
				throw FormatAtoms.unrecognized(name, arg);
			}
		}
		return new NameModifier((kind != null) ? kind : Kind.FULL, number, brackets);
	}

}
