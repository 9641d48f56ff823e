package io.refstore.core.cli.options;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.refstore.core.cli.env.CommandFailure;

/**
 * git's global options before the command, turned into the environment git itself would
 * hand its commands: {@code -c name=value} and {@code --config-env=name=envvar} append to
 * {@code GIT_CONFIG_PARAMETERS}, {@code --git-dir} sets {@code GIT_DIR},
 * {@code --work-tree} {@code GIT_WORK_TREE}, {@code --bare} a {@code GIT_DIR} of the
 * working directory unless one is set, {@code --namespace} {@code GIT_NAMESPACE}. Options
 * that change nothing a ref command does (pager, pathspec magic, optional locks) are
 * accepted and ignored. {@code -C} is the caller's, as it changes the directory.
 */
public final class GlobalOptions {

	/** Options without a value that do not concern ref plumbing. */
	private static final Set<String> IGNORED = Set.of("-p", "--paginate", "-P", "--no-pager", "--no-replace-objects",
			"--literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs", "--no-optional-locks",
			"--no-lazy-fetch", "--no-advice");

	/** Options with a value that do not concern ref plumbing. */
	private static final Set<String> IGNORED_WITH_VALUE = Set.of("--shallow-file", "--attr-source");

	private final Map<String, String> env;

	private StringBuilder parameters;

	public GlobalOptions(Map<String, String> env) {
		this.env = new HashMap<>(env);
	}

	/** What {@code --version} prints. */
	public static String version() {
		String version = GlobalOptions.class.getPackage().getImplementationVersion();
		return "refstore version " + ((version != null) ? version : "(development build)") + "\n";
	}

	/**
	 * Takes the global option at {@code i} (and its value, if separate).
	 * @return the index of the last argument taken
	 * @throws CommandFailure for an unknown option or a missing value
	 */
	public int parse(List<String> args, int i, String usage) throws CommandFailure {
		String arg = args.get(i);
		String name = arg;
		String value = null;
		int eq = arg.indexOf('=');
		if (arg.startsWith("--") && eq > 0) {
			name = arg.substring(0, eq);
			value = arg.substring(eq + 1);
		}
		if (IGNORED.contains(arg)) {
			return i;
		}
		if (arg.equals("--bare")) {
			this.env.putIfAbsent("GIT_DIR", ".");
			return i;
		}
		if (!Set.of("-c", "--config-env", "--git-dir", "--work-tree", "--namespace").contains(name)
				&& !IGNORED_WITH_VALUE.contains(name)) {
			throw CommandFailure.usage("unknown option: " + arg, usage);
		}
		if (value == null) {
			if (i + 1 == args.size()) {
				throw CommandFailure
					.usage(name.equals("-c") ? "no config key given for -c" : "no value given for " + name, usage);
			}
			value = args.get(++i);
		}
		switch (name) {
			case "-c" -> config(value);
			case "--config-env" -> configEnv(value);
			case "--git-dir" -> this.env.put("GIT_DIR", value);
			case "--work-tree" -> this.env.put("GIT_WORK_TREE", value);
			case "--namespace" -> this.env.put("GIT_NAMESPACE", value);
			default -> {
				// accepted, without effect on ref plumbing
			}
		}
		return i;
	}

	private void config(String spec) throws CommandFailure {
		int eq = spec.indexOf('=');
		String name = (eq < 0) ? spec : spec.substring(0, eq);
		if (name.isEmpty()) {
			throw CommandFailure.fatal("bogus config parameter: " + spec);
		}
		append(name, (eq < 0) ? null : spec.substring(eq + 1));
	}

	private void configEnv(String spec) throws CommandFailure {
		int eq = spec.lastIndexOf('=');
		if (eq <= 0) {
			throw CommandFailure.fatal("invalid config format: " + spec);
		}
		String name = spec.substring(0, eq);
		String variable = spec.substring(eq + 1);
		if (variable.isEmpty()) {
			throw CommandFailure.fatal("missing environment variable name for configuration '" + name + "'");
		}
		String value = this.env.get(variable);
		if (value == null) {
			throw CommandFailure
				.fatal("missing environment variable '" + variable + "' for configuration '" + name + "'");
		}
		append(name, value);
	}

	/** Appends one entry in git's quoting, after what the environment already held. */
	private void append(String name, String value) {
		if (this.parameters == null) {
			String old = this.env.get("GIT_CONFIG_PARAMETERS");
			this.parameters = new StringBuilder((old != null) ? old : "");
		}
		if (!this.parameters.isEmpty()) {
			this.parameters.append(' ');
		}
		quote(name);
		if (value != null) {
			this.parameters.append('=');
			quote(value);
		}
	}

	private void quote(String word) {
		this.parameters.append('\'').append(word.replace("'", "'\\''")).append('\'');
	}

	/** The environment the command runs with. */
	public Map<String, String> environment() {
		if (this.parameters != null) {
			this.env.put("GIT_CONFIG_PARAMETERS", this.parameters.toString());
		}
		return Map.copyOf(this.env);
	}

}
