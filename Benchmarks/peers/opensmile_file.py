"""openSMILE 2.6.0's eGeMAPSv02 functionals of one file, as a study runs the `opensmile` package
(a test peer only): one process, `Smile.process_file`, the functionals' loudness_sma3_amean
printed as the check value. Timed whole (Python's start and the imports included) beside
`activetask score voice --sets egemapsv02 --json FILE`.

    python3 Benchmarks/peers/opensmile_file.py FILE
"""
import sys

import opensmile

smile = opensmile.Smile(feature_set=opensmile.FeatureSet.eGeMAPSv02, feature_level=opensmile.FeatureLevel.Functionals)
print(float(smile.process_file(sys.argv[1])["loudness_sma3_amean"].iloc[0]))
