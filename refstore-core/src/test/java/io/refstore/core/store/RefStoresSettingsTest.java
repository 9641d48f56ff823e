package io.refstore.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.repo.Repository;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * {@link RefStores#settings}: what a cache of open stores compares. Each setting a store
 * is opened under, set by git in the repository's config, gives another text; settings
 * that open no store differently do not.
 */
class RefStoresSettingsTest {

	/** A value other than git's default for each setting. */
	private static final Map<String, String> OTHER_VALUES = Map.of("core.fsync", "reference", "core.logAllRefUpdates",
			"always", "core.filesRefLockTimeout", "5000", "core.packedRefsTimeout", "-1", "reftable.blockSize", "8192",
			"reftable.restartInterval", "32", "reftable.indexObjects", "false", "reftable.lockTimeout", "250",
			"reftable.geometricFactor", "3", "reftable.autoCompaction", "false");

	@Test
	void everySettingAStoreIsOpenedUnderChangesTheText(@TempDir Path tmp) throws IOException {
		TempRepo repo = TempRepo.init(GitCli.system(), tmp.resolve("r.git"), "--bare");
		assertThat(OTHER_VALUES.keySet()).as("a value for each setting").isEqualTo(Set.copyOf(RefStores.SETTINGS));
		Set<String> texts = new HashSet<>();
		texts.add(settings(repo));
		for (String setting : RefStores.SETTINGS) {
			repo.git("config", setting, OTHER_VALUES.get(setting));
			assertThat(texts.add(settings(repo))).as("the text after setting " + setting).isTrue();
		}
		repo.git("config", "user.name", "Someone Else");
		repo.git("config", "gc.auto", "0");
		assertThat(texts).as("settings no store is opened under leave the text alone").contains(settings(repo));
	}

	private static String settings(TempRepo repo) throws IOException {
		try (Repository repository = Repository.open(repo.gitDir())) {
			return RefStores.settings(repository);
		}
	}

}
