package io.refstore.core.cli.format;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.refstore.core.objects.ObjectText.Ident;
import io.refstore.core.repo.Repository;

/**
 * A mailmap ({@code .mailmap} in the worktree, then {@code mailmap.file}): lines
 * {@code Proper Name <proper@email> Commit Name <commit@email>}, where the commit side
 * may be the email alone and the proper side may lack either part. Emails match without
 * regard to case. Immutable.
 */
final class Mailmap {

	/** One line: the proper name and email (either may be null), the commit ones. */
	private record Entry(String properName, String properEmail, String commitName, String commitEmail) {
	}

	private final List<Entry> entries;

	private Mailmap(List<Entry> entries) {
		this.entries = entries;
	}

	static Mailmap load(Repository repository) throws IOException {
		List<Entry> entries = new ArrayList<>();
		if (repository.workTree().isPresent()) {
			read(repository.workTree().get().resolve(".mailmap"), entries);
		}
		var file = repository.config().getString("mailmap", null, "file");
		if (file.isPresent()) {
			read(Path.of(file.get()), entries);
		}
		return new Mailmap(entries);
	}

	private static void read(Path file, List<Entry> entries) throws IOException {
		if (!Files.isRegularFile(file)) {
			return;
		}
		for (String line : Files.readAllLines(file)) {
			int hash = line.indexOf('#');
			String text = (hash >= 0) ? line.substring(0, hash) : line;
			int lt1 = text.indexOf('<');
			int gt1 = (lt1 < 0) ? -1 : text.indexOf('>', lt1);
			if (gt1 < 0) {
				continue;
			}
			String name1 = text.substring(0, lt1).strip();
			String email1 = text.substring(lt1 + 1, gt1);
			String rest = text.substring(gt1 + 1);
			int lt2 = rest.indexOf('<');
			int gt2 = (lt2 < 0) ? -1 : rest.indexOf('>', lt2);
			if (gt2 < 0) {
				entries.add(new Entry(name1.isEmpty() ? null : name1, null, null, email1));
			}
			else {
				String name2 = rest.substring(0, lt2).strip();
				entries.add(new Entry(name1.isEmpty() ? null : name1, email1, name2.isEmpty() ? null : name2,
						rest.substring(lt2 + 1, gt2)));
			}
		}
	}

	private Entry find(Ident ident) {
		String email = ident.email().substring(1, ident.email().length() - 1).toLowerCase(Locale.ROOT);
		Entry found = null;
		for (Entry entry : this.entries) {
			if (!entry.commitEmail().toLowerCase(Locale.ROOT).equals(email)) {
				continue;
			}
			if (entry.commitName() != null) {
				if (entry.commitName().equalsIgnoreCase(ident.name())) {
					return entry;
				}
			}
			else {
				found = entry;
			}
		}
		return found;
	}

	/** The mapped name. */
	String name(Ident ident) {
		Entry entry = find(ident);
		return (entry != null && entry.properName() != null) ? entry.properName() : ident.name();
	}

	/** The mapped email, in angle brackets. */
	String email(Ident ident) {
		Entry entry = find(ident);
		return (entry != null && entry.properEmail() != null) ? "<" + entry.properEmail() + ">" : ident.email();
	}

}
