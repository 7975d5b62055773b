-- Every dimension view's and mirror's batch log keeps, in its table property, the state its rows
-- give (refreshes read the property instead of scanning the log). Returns the models where not.
{{ pdelta.batch_log_state_drift_sql() }}
