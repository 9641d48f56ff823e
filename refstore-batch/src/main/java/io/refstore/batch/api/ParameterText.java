package io.refstore.batch.api;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.refstore.core.repo.RefusedJobInputException;

/**
 * Reads the text of job parameters into values, each refusal an
 * {@link InvalidJobParameterException} naming the parameter. Callers' maps and a job's
 * own parameters are read by the same rules, so what a launch accepted its steps read
 * alike. Stateless.
 */
final class ParameterText {

	private final Map<String, ?> given;

	ParameterText(Map<String, ?> given) {
		this.given = given;
	}

	/** The text of {@code key}, or {@code null}. */
	String text(String key) {
		Object value = this.given.get(key);
		return (value == null) ? null : value.toString();
	}

	boolean has(String key) {
		return this.given.get(key) != null;
	}

	/** {@code true} or {@code false}, nothing else; {@code fallback} when absent. */
	boolean bool(String key, boolean fallback) {
		String value = text(key);
		if (value == null) {
			return fallback;
		}
		if (!value.equals("true") && !value.equals("false")) {
			throw new InvalidJobParameterException(key, value, "it must be 'true' or 'false'");
		}
		return value.equals("true");
	}

	/** A whole number; {@code fallback} when absent. The record checks its range. */
	long number(String key, long fallback) {
		String value = text(key);
		if (value == null) {
			return fallback;
		}
		long number;
		try {
			number = Long.parseLong(value);
		}
		catch (NumberFormatException ex) {
			throw new InvalidJobParameterException(key, value, "it must be a whole number");
		}
		return number;
	}

	/** {@code number} if it is from {@code min} to {@code max}. */
	static long range(String key, long number, long min, long max) {
		if (number < min || number > max) {
			throw new InvalidJobParameterException(key, Long.toString(number), "it must be from " + min + " to " + max);
		}
		return number;
	}

	/**
	 * The comma-separated values of {@code key}, stripped, blank ones dropped; empty when
	 * absent.
	 */
	List<String> list(String key) {
		return JobParameterNames.list(text(key));
	}

	/** A path that {@code key} gives; required. */
	Path path(String key) {
		String value = text(key);
		if (value == null) {
			throw new InvalidJobParameterException(key, null, "it is required");
		}
		try {
			return Path.of(value);
		}
		catch (RuntimeException ex) {
			throw new InvalidJobParameterException(key, value, "it is not a path");
		}
	}

	/** {@link #path} when given, {@code null} otherwise. */
	Path optionalPath(String key) {
		return has(key) ? path(key) : null;
	}

	/** Checks an input a parameter names in the repository ({@code RepositoryInputs}). */
	@FunctionalInterface
	interface InputCheck<T> {

		T check() throws IOException;

	}

	/**
	 * What {@code check} returns, its refusal as the parameter's: a job input (plan,
	 * manifest, backup) outside its directory, missing, reached through a symbolic link
	 * or written by another repository.
	 * @throws InvalidJobParameterException naming the parameter
	 * @throws UncheckedIOException if the file system cannot be read
	 */
	static <T> T input(InputCheck<T> check) {
		try {
			return check.check();
		}
		catch (RefusedJobInputException ex) {
			throw new InvalidJobParameterException(ex.parameter(), ex.value(), ex.reason());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
