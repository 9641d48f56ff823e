package io.refstore.web.repos;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * At the application's start, removes the locks that dead refstore processes left in the
 * repositories it manages ({@link RepoRegistry#releaseAbandonedLocks}): an application
 * killed during API writes, compactions or maintenance leaves locks that block git until
 * then. A writer that needs such a lock earlier removes it itself.
 */
@Component
class AbandonedLockSweep implements ApplicationRunner {

	private final RepoRegistry registry;

	AbandonedLockSweep(RepoRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void run(ApplicationArguments args) {
		this.registry.releaseAbandonedLocks();
	}

}
