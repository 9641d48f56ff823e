package io.refstore.web.fleet;

/**
 * A job one node asks another to run.
 *
 * @param id the request's id
 * @param kind a launch or a restart
 * @param origin the node asked
 * @param target the node holding the repository, which runs the job
 * @param jobType the job's type ({@code RefJobType}'s name) for a launch
 * @param repository the repository's name as the caller gave it
 * @param parameters the job's parameters as JSON, for a launch
 * @param restartOf the execution to restart, for a restart
 * @param actor who asked
 */
record JobHandoffRequest(String id, Kind kind, String origin, String target, String jobType, String repository,
		String parameters, Long restartOf, String actor) {

	enum Kind {

		LAUNCH, RESTART

	}

}
